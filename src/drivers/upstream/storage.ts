import { Etcd3 } from 'etcd3';

/**
 * The upstream target's etcd, through etcd's own v3 API: its revision, compaction (what
 * kube-apiserver's compactor does every --etcd-compaction-interval, k8s.io/apiserver
 * storage/etcd3 compact.go, but now), and which revisions changed kube-apiserver's keys.
 */
export class EtcdAccess {
  private readonly client: Etcd3;

  constructor(url: string) {
    this.client = new Etcd3({ hosts: url });
  }

  /** etcd's current revision (every write moves it by one). */
  async revision(): Promise<number> {
    const r = await this.client.kv.range({ key: Buffer.from('/registry/'), count_only: true });
    return Number(r.header.revision);
  }

  /** Compacts etcd at its current revision: every older revision is gone (a watch or list from one answers 410). */
  async compact(): Promise<void> {
    const revision = await this.revision();
    await this.client.kv.compact({ revision: String(revision), physical: true });
  }

  /**
   * The revisions after `since` (up to now) whose changes are all to keys kube-apiserver
   * writes: under its --etcd-prefix (/registry/), and its compactor's compact_rev_key.
   * A writer of any other key shows as a revision not counted here.
   */
  async apiServerRevisionsSince(
    since: number,
    quietMs = 500,
    timeoutMs = 10_000,
    firstEventMs = 5_000,
  ): Promise<number> {
    const until = await this.revision();
    if (until <= since) return 0;
    const seen = new Set<number>();
    // Quiet is counted from the last event, and before the first from the watches' start with
    // more room: under load (28 control planes, load 41) the first answer took longer than
    // quietMs, and the count came back 0 (components.feature in the eleventh full run).
    const started = Date.now();
    let last: number | undefined;
    const watchers = await Promise.all(
      [this.client.watch().prefix('/registry/'), this.client.watch().key('compact_rev_key')].map((b) =>
        b.startRevision(String(since + 1)).create(),
      ),
    );
    try {
      for (const w of watchers)
        w.on('data', (res) => {
          for (const ev of res.events) {
            const rev = Number(ev.kv.mod_revision);
            if (rev <= until) seen.add(rev);
          }
          last = Date.now();
        });
      // Revisions of other keys never arrive: wait until every revision is seen, or the history went quiet.
      const deadline = Date.now() + timeoutMs;
      const quiet = () => (last === undefined ? Date.now() - started < firstEventMs : Date.now() - last < quietMs);
      while (seen.size < until - since && Date.now() < deadline && quiet()) await new Promise((r) => setTimeout(r, 50));
      return seen.size;
    } finally {
      await Promise.all(watchers.map((w) => w.cancel()));
    }
  }

  close(): void {
    this.client.close();
  }
}
