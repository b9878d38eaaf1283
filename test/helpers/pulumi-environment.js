/**
 * The jest environment of the end-to-end suites: Node's, plus the process-level error handling
 * Pulumi's inline program runner relies on.
 *
 * While the Automation API runs an inline program it listens for `unhandledRejection` and
 * `uncaughtException` on `process` (automation/server.js), records each error and fails the run
 * with it, as the Node.js language host does for a program of its own. Newer SDKs (3.2xx) also
 * reject every Output of a resource the engine failed to register (so `pulumi.recover` can catch
 * it); nothing consumes most of them, so each failed resource ends as unhandled rejections,
 * which that handler collects.
 *
 * Inside jest a test's `process` is a copy whose listeners the real process never calls, and
 * jest-circus turns every unhandled rejection or uncaught exception of the worker into a
 * failure of the running test. So a test expecting a resource to fail would fail on the
 * rejections the runner was meant to see. This environment hands such an error to the
 * listeners the test's `process` holds, when it holds any, and takes it back from the test's
 * errors: what a plain Node process running the Automation API does. With no listener (no
 * program running), the error fails the test as before.
 */
const { TestEnvironment } = require("jest-environment-node");

class PulumiInlineEnvironment extends TestEnvironment {
  handleTestEvent(event, state) {
    if (event.name !== "error") return;
    const sandbox = this.global.process;
    const listeners = [...sandbox.listeners("unhandledRejection"), ...sandbox.listeners("uncaughtException")];
    if (listeners.length === 0) return;
    // jest-circus has just recorded the error on the running test (or the run, between tests).
    const errors = state.currentlyRunningTest ? state.currentlyRunningTest.errors : state.unhandledErrors;
    const at = errors.lastIndexOf(event.error);
    if (at === -1) return;
    errors.splice(at, 1);
    // Each distinct listener once (Pulumi registers one handler for both events).
    new Set(listeners).forEach((listener) => listener.call(sandbox, event.error));
  }
}

module.exports = PulumiInlineEnvironment;
