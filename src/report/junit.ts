// JUnit XML for CI test views, written from the run's parsed messages (not by Cucumber's
// junit formatter, which writes only when the run ends, and knows neither kubespec's
// not-applicable rule nor its diagnostics): so an interrupted run, and a --rerun-failed
// merged into the first run's record, get one as well. Per scenario:
// - <skipped message="the n/a reason"/> for a scenario not applicable on the target;
// - its behaviour IDs as <property name="behaviour" value="…"/>;
// - on a failure, the error in <failure>, and the cluster state it attached (nodes,
//   taints, pods, events) and the errors components handled in the background in
//   <system-out>.
import { NOT_APPLICABLE_MEDIA_TYPE, type ScenarioResult } from './messages';

export interface JunitSuite {
  name: string;
  /** the run's label, target and profile, and an interruption, as suite properties */
  properties: Record<string, string>;
  scenarios: ScenarioResult[];
  timestamp?: string;
}

/** Textual attachments worth a reader's time in system-out (the clock record is for benchmarks). */
function shownAttachments(s: ScenarioResult): string[] {
  return s.attachments
    .filter(
      (a) => a.encoding === 'identity' && a.mediaType.startsWith('text/') && a.mediaType !== NOT_APPLICABLE_MEDIA_TYPE,
    )
    .map((a) => `${a.step ? `[${a.step}]\n` : ''}${a.body}`);
}

export function junitXml(suite: JunitSuite): string {
  const tests = suite.scenarios.length;
  const failed = suite.scenarios.filter((s) => s.status !== 'passed' && s.status !== 'not-applicable').length;
  const skipped = suite.scenarios.filter((s) => s.status === 'not-applicable').length;
  const time = suite.scenarios.reduce((t, s) => t + s.durationMs, 0) / 1000;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(
    `<testsuite name="${attr(suite.name)}" tests="${tests}" failures="${failed}" skipped="${skipped}" errors="0" time="${time.toFixed(3)}"${suite.timestamp ? ` timestamp="${attr(suite.timestamp)}"` : ''}>`,
  );
  const props = Object.entries(suite.properties);
  if (props.length) {
    out.push('  <properties>');
    for (const [k, v] of props) out.push(`    <property name="${attr(k)}" value="${attr(v)}"/>`);
    out.push('  </properties>');
  }
  for (const s of suite.scenarios) {
    out.push(
      `  <testcase classname="${attr(s.uri)}" name="${attr(`${s.name} (${s.uri}:${s.line})`)}" time="${(s.durationMs / 1000).toFixed(3)}">`,
    );
    if (s.behaviourIds.length) {
      out.push('    <properties>');
      for (const id of s.behaviourIds) out.push(`      <property name="behaviour" value="${attr(id)}"/>`);
      out.push('    </properties>');
    }
    if (s.status === 'not-applicable') out.push(`    <skipped message="${attr(s.notApplicableReason ?? '')}"/>`);
    else if (s.status !== 'passed') {
      const first = (s.error ?? s.status).split('\n')[0];
      out.push(`    <failure type="${attr(s.status)}" message="${attr(first)}">${text(s.error ?? s.status)}</failure>`);
    }
    const shown = shownAttachments(s);
    if (shown.length) out.push(`    <system-out>${text(shown.join('\n\n'))}</system-out>`);
    out.push('  </testcase>');
  }
  out.push('</testsuite>');
  return `${out.join('\n')}\n`;
}

// XML 1.0 allows no control characters but tab, LF and CR, even as references.
// biome-ignore lint/suspicious/noControlCharactersInRegex: those are what it removes
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

function attr(v: string): string {
  return v
    .replace(INVALID_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;');
}

function text(v: string): string {
  return v.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
