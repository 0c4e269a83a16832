/**
 * The echo provider, logging a line on stderr every 20 ms, as a provider does through a long apply (status polls).
 * For the test that a provider whose engine was SIGKILLed (so nobody reads its stderr any more) exits.
 */
import { serve } from "../../../src/protocol/serve.js";
import { EchoServer } from "./echo-provider.js";

await serve(new EchoServer());
setInterval(() => process.stderr.write("[chatty] still polling\n"), 20);
