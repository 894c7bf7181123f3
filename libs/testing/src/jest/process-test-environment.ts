import type { Event } from 'jest-circus';
import { TestEnvironment } from 'jest-environment-node';
import { problemsLogged, runningApps } from '../e2e/running-apps';

type TestEntry = Extract<Event, { name: 'test_fn_failure' }>['test'];
type DescribeBlock = TestEntry['parent'];

/** How long a failure's report waits for the lines the processes logged at that moment. */
const REPORT_DELAY_MS = 1_000;

/**
 * The test environment of the integration and e2e tiers: Node's, and when a test or a
 * beforeAll/afterAll hook fails, the warnings and errors that the app processes the test started
 * (startApp) logged since it began are printed beneath it (see e2e/running-apps.ts). A 503 from a
 * distributed deployment then comes with the gateway's reason for it in the CI log of that run.
 */
export default class ProcessTestEnvironment extends TestEnvironment {
  /** When the running test (with its beforeEach hooks) or beforeAll/afterAll hook began. */
  private since = Date.now();

  async handleTestEvent(event: Event): Promise<void> {
    switch (event.name) {
      case 'test_start':
        this.since = Date.now();
        return;
      case 'hook_start':
        if (event.hook.type === 'beforeAll' || event.hook.type === 'afterAll')
          this.since = Date.now();
        return;
      case 'test_fn_failure':
        return this.report(`"${fullName(event.test)}" failed`);
      case 'hook_failure':
        return this.report(`${event.hook.type} of "${fullName(event.hook.parent)}" failed`);
      default:
        return;
    }
  }

  private async report(what: string): Promise<void> {
    // What the processes log at the moment of the failure (a service's account of the request
    // the test gave up on) is still on its way through their pipes: wait for it.
    await new Promise((settle) => setTimeout(settle, REPORT_DELAY_MS));
    const problems = problemsLogged(runningApps(this.global), this.since);
    if (problems)
      process.stderr.write(
        `\n${what}; what its app processes logged as warnings and errors meanwhile:\n${problems}\n\n`,
      );
  }
}

/** A test's or block's name with the describe blocks around it, as jest prints it. */
function fullName(entry: TestEntry | DescribeBlock): string {
  const names: string[] = [];
  for (let at: TestEntry | DescribeBlock | undefined = entry; at && at.parent; at = at.parent)
    names.unshift(at.name);
  return names.join(' › ');
}
