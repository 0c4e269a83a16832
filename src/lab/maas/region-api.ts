/** MAAS handlers for version/ (anonymous) and users/: the region itself. */
import { API } from "./render.js";
import type { Handler } from "./router.js";

/** Version the lab reports (a MAAS 3.x region speaking API 2.0). */
export const LAB_MAAS_VERSION = "3.5.0";

const CAPABILITIES = [
  "networks-management",
  "static-ipaddresses",
  "ipv6-deployment-ubuntu",
  "devices-management",
  "storage-deployment-ubuntu",
  "network-deployment-ubuntu",
  "bridging-interface-ubuntu",
  "bridging-automatic-ubuntu",
  "authenticate-api",
];

/** Version and user handlers (the region itself). */
export function regionHandlers(): Handler[] {
  return [
    {
      name: "VersionHandler",
      path: "version/",
      doc: "Information about this MAAS instance.",
      actions: [
        {
          name: "read",
          method: "GET",
          op: null,
          anon: true,
          doc: "MAAS version and capabilities.",
          run: () => ({ json: { capabilities: CAPABILITIES, version: LAB_MAAS_VERSION, subversion: "rackform-lab" } }),
        },
      ],
    },
    {
      name: "UsersHandler",
      path: "users/",
      doc: "Manage the user accounts of this MAAS.",
      actions: [
        {
          name: "read",
          method: "GET",
          op: null,
          doc: "List users.",
          run: (ctx) => ({ json: [user(ctx.user?.username ?? "admin")] }),
        },
        {
          name: "whoami",
          method: "GET",
          op: "whoami",
          doc: "Returns the currently logged in user.",
          run: (ctx) => ({ json: user(ctx.user?.username ?? "admin") }),
        },
      ],
    },
  ];
}

function user(username: string) {
  return {
    is_superuser: true,
    username,
    email: `${username}@lab.rackform.invalid`,
    is_local: true,
    resource_uri: `${API}/users/${username}/`,
  };
}
