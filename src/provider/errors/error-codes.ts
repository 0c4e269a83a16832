/**
 * Codes the provider itself raises (beyond the clients' ERROR_CODES), and the constructs library's one code: the docs
 * list all of them in docs/errors.md. The constructs never import src, so their code is catalogued here and a test
 * checks that constructs/lib still raises it.
 */
export const PROVIDER_ERROR_CODES = {
  RACKFORM_ERR_BACKEND_NOT_CONFIGURED:
    "A machine names a backend (maas, ironic or warewulf) whose endpoint the provider block does not configure.",
  RACKFORM_ERR_IMAGE_URL_UNREACHABLE:
    "rackform_deployment's image.url did not answer before an Ironic deploy (a status other than 2xx/3xx, a refused " +
    "connection, a TLS failure or a timeout); nothing was sent to Ironic. Publish the image or fix the URL, or set " +
    "image.check_url = false when only the provisioning network reaches it.",
  RACKFORM_ERR_IMAGE_IN_USE:
    "rackform_image's destroy was refused: MAAS machines are deployed with the image. Destroy or reimage the " +
    "deployments that use it first (depends_on orders that in one configuration), or `terraform state rm` the image " +
    "to keep it in MAAS.",
  RACKFORM_ERR_IMAGE_CHECKSUM:
    "rackform_image's bytes do not hash to its sha256: MAAS refused the upload when the last byte arrived, or the " +
    "image server announces another sha256. Correct sha256, or publish the right image.",
  RACKFORM_ERR_BACKEND_AMBIGUOUS:
    "Several machines in the backend match one node's name, MACs or BMC address; rackform will not guess which one.",
  RACKFORM_ERR_BACKEND_WAREWULF_NODE:
    "The Warewulf node of a machine is no longer defined in warewulfd (or its ipmi block lost the BMC address and " +
    "credentials rackform stored at enroll); apply again to define it.",
} as const;

/** The constructs library's validation error (constructs/lib/errors.ts): synth stopped before any engine ran. */
export const CONSTRUCT_ERROR_CODES = {
  RACKFORM_ERR_CONSTRUCT_INVALID:
    "A construct's props are invalid; the message names the construct path, the bad value and the fix.",
} as const;
