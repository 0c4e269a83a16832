/** The command line of `rackform attest verify` (apart from its code, which loads the X.509 library). */
import type { CommandSpec } from "./args.js";

/** `rackform attest verify`. */
export const ATTEST_VERIFY: CommandSpec = {
  name: "attest verify",
  positionals: "FILE",
  brief: "re-verify the attestation evidence in state, offline",
  summary:
    "re-verify rackform_acceptance's attestation_evidence offline: each signed SPDM answer against its nonce, its\ncertificate chain against --anchors and its measurements against --reference; FILE is the evidence, a state\nfile or `terraform show -json` output (- for stdin); exits 0 when every component verifies, 1 otherwise",
  options: [
    {
      name: "--anchors",
      value: "PEM",
      help: "the trust anchors to verify against (default: those the evidence names)",
    },
    {
      name: "--reference",
      value: "JSON",
      help: "the reference values to compare with (its sha256 must be the one pinned)",
    },
  ],
};
