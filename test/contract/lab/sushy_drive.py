"""Drives a lab BMC with real sushy (OpenStack's Redfish client): log in with a session, read the system, set
one-time PXE boot, power-cycle, read firmware, turn UEFI Secure Boot on for the next boot and reset, log out. Prints one JSON document with what sushy saw.

usage: sushy_drive.py BMC_URL USERNAME CA_PATH   (password on stdin, so it never shows in a process list)
"""
import json
import sys

import sushy
from sushy import auth as sushy_auth


def secure_boot_state(sb):
    return {"enabled": sb.enabled, "current_boot": sb.current_boot.value, "mode": sb.mode.value}


def main():
    url, username, ca = sys.argv[1], sys.argv[2], sys.argv[3]
    password = sys.stdin.readline().rstrip("\n")
    auth = sushy_auth.SessionAuth(username=username, password=password)
    root = sushy.Sushy(url + "/redfish/v1", auth=auth, verify=ca)
    out = {"session_token_set": auth.get_session_key() is not None,
           "session_uri": auth.get_session_resource_id()}

    systems = root.get_system_collection()
    out["system_paths"] = sorted(systems.members_identities)
    system = root.get_system(out["system_paths"][0])
    out["identity"] = system.identity
    out["manufacturer"] = system.manufacturer
    out["serial"] = system.serial_number
    out["power_before"] = str(system.power_state.value)
    out["boot_targets"] = sorted(v.value for v in system.get_allowed_system_boot_source_values())
    out["reset_types"] = sorted(v.value for v in system.get_allowed_reset_system_values())
    out["macs"] = sorted(system.ethernet_interfaces.summary.keys())
    procs = system.processors.get_members()
    out["gpus"] = sorted(p.identity for p in procs if str(p.processor_type.value) == "GPU")
    out["gpu_models"] = sorted({p.model for p in procs if str(p.processor_type.value) == "GPU"})

    # What Ironic's redfish inspection reads: memory, CPUs, local disks.
    out["memory_gib"] = system.memory_summary.size_gib
    out["cpu_count"] = system.processors.summary.count
    out["disk_max_bytes"] = max(system.storage.drives_sizes_bytes)

    system.set_system_boot_options(sushy.BootSource.PXE, enabled=sushy.BootSourceOverrideEnabled.ONCE)
    system.refresh()
    out["boot_after_set"] = {"target": system.boot.target.value, "enabled": system.boot.enabled.value}

    system.reset_system(sushy.ResetType.POWER_CYCLE)
    system.refresh()
    out["power_after_cycle"] = str(system.power_state.value)
    out["boot_after_cycle"] = {"target": system.boot.target.value, "enabled": system.boot.enabled.value}

    managers = root.get_manager_collection()
    manager = root.get_manager(managers.members_identities[0])
    out["manager_firmware"] = manager.firmware_version
    cd = [m for m in manager.virtual_media.get_members() if "cd" in [str(t.value).lower() for t in m.media_types]][0]
    cd.insert_media("http://127.0.0.1:8080/images/ipa.iso", inserted=True, write_protected=True)
    cd.refresh()
    out["vmedia_inserted"] = {"image": cd.image, "inserted": cd.inserted}
    cd.eject_media()
    cd.refresh()
    out["vmedia_after_eject"] = cd.inserted
    inventory = root.get_update_service().firmware_inventory
    out["firmware"] = sorted((m.identity, m.version) for m in inventory.get_members())

    # UEFI Secure Boot through sushy's system.secure_boot (sushy has no certificate/signature or
    # ComponentIntegrity API: its SecureBootDatabase leaves both as TODO).
    sb = system.secure_boot
    out["secure_boot"] = secure_boot_state(sb)
    out["secure_boot_reset_keys"] = sorted(v.value for v in sb.get_allowed_reset_keys_values())
    dbs = sb.databases.get_members()
    out["secure_boot_databases"] = sorted(d.database_id.value for d in dbs)
    db = [d for d in dbs if d.database_id.value == "db"][0]
    out["db_reset_keys"] = sorted(v.value for v in db.get_allowed_reset_keys_values())
    sb.set_enabled(True)
    sb.refresh()
    out["secure_boot_pending"] = secure_boot_state(sb)
    system.reset_system(sushy.ResetType.FORCE_RESTART)
    sb.refresh()
    out["secure_boot_after_reset"] = secure_boot_state(sb)
    sb.set_enabled(False)
    system.reset_system(sushy.ResetType.FORCE_RESTART)
    sb.refresh()
    out["secure_boot_after_disable"] = secure_boot_state(sb)

    auth.close()
    out["sushy_version"] = getattr(sushy, "__version__", "unknown")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
