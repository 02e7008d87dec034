import { Clock } from '../clock';
import { Client } from '../client/client';
import { ControllerContext } from '../client/controller-context';

/**
 * What every controller has the same way: its ControllerContext, the client and clock read
 * through it, and a stop() that is the context's (handlers removed, queues shut down, timers
 * cleared, in-flight syncs awaited). A controller that holds more state of its own clears it
 * in an override and then calls super.stop().
 */
export abstract class ControllerBase {
  constructor(protected readonly ctx: ControllerContext) {}

  protected get client(): Client {
    return this.ctx.client;
  }

  protected get clock(): Clock {
    return this.ctx.clock;
  }

  /** Resolves once the syncs and background work under way have ended. */
  stop(): Promise<void> {
    return this.ctx.stop();
  }
}
