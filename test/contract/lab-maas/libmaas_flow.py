"""Drives the lab's MAAS API with the real python-libmaas client: connect, list, create, commission, deploy, release.

Usage: python3 libmaas_flow.py <maas-url> <apikey-file> <bmc-address>
Prints one JSON line per step on stdout; exits non-zero on the first failure.
"""

import json
import sys


def step(name, **fields):
    print(json.dumps({"step": name, **fields}), flush=True)


try:
    import maas.client
    from maas.client.enum import NodeStatus, PowerState
except ImportError as error:  # Reported by the TS test as a clear failure.
    print(json.dumps({"step": "import", "error": str(error)}), flush=True)
    sys.exit(3)


def main():
    url, key_file, bmc = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(key_file) as f:
        apikey = f.read().strip()
    from importlib.metadata import version

    step("imported", libmaas=version("python-libmaas"), python=sys.version.split()[0])
    client = maas.client.connect(url, apikey=apikey)
    step("connected", version=client.version.get().version, user=client.users.whoami().username)

    step("listed", count=len(client.machines.list()))

    machine = client.machines.create(
        "amd64/generic",
        ["52:54:00:aa:bb:01"],
        "redfish",
        {"power_address": bmc, "power_user": "root", "power_pass": "calvin-pass"},
        hostname="libmaas-node-1",
    )
    step("created", system_id=machine.system_id, status=machine.status.name, power_type=machine.power_type)

    # Wait for the commissioning that creation started, then commission again explicitly.
    machine = wait_until(client, machine.system_id, NodeStatus.READY)
    machine.commission(wait=True, wait_interval=0.05)
    step("commissioned", status=machine.status.name, status_name=machine.status_name)

    machine.deploy(distro_series="jammy", user_data=b"#cloud-config\n", wait=True, wait_interval=0.05)
    step("deployed", status=machine.status.name, osystem=machine.osystem, distro_series=machine.distro_series)

    state = machine.query_power_state()
    step("power", state=state.value if isinstance(state, PowerState) else str(state))

    machine.release(erase=True, quick_erase=True, wait=True, wait_interval=0.05)
    step("released", status=machine.status.name)

    again = client.machines.get(machine.system_id)
    step("read", hostname=again.hostname, macs=[i.mac_address for i in again.interfaces], status=again.status.name)


def wait_until(client, system_id, status):
    import time

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        machine = client.machines.get(system_id)
        if machine.status == status:
            return machine
        time.sleep(0.05)
    raise TimeoutError("machine %s never reached %s" % (system_id, status.name))


if __name__ == "__main__":
    main()
