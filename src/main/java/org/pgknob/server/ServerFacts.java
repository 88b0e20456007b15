package org.pgknob.server;

import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What pgknob knows about a target server and the machine it runs on.
 *
 * <p>Host figures (RAM, cores, cgroup limit, postmaster pid) are present only when the server runs
 * on this host: a managed cluster, or an existing server reached on the loopback whose data folder
 * is readable here. For a server on another host they are empty rather than this machine's figures.
 *
 * @param serverVersion server_version, e.g. {@code 18.1}
 * @param serverVersionNum server_version_num, e.g. {@code 180001}
 * @param dataDirectory data_directory, or null when the connected role may not read it
 * @param local true when the server runs on this host and its data folder is readable here
 * @param hostMemoryBytes MemTotal of this host when local
 * @param hostCores processors the server may use when local: this host's, or fewer when the
 *     server's cgroup has a CPU quota
 * @param cgroupMemoryLimitBytes the memory limit of the server's cgroup when local and one applies
 * @param postmasterPid the postmaster's pid from data_directory/postmaster.pid when local
 * @param user the role pgknob connects as
 * @param superuser whether that role is a superuser
 */
public record ServerFacts(
    String serverVersion,
    int serverVersionNum,
    String dataDirectory,
    boolean local,
    OptionalLong hostMemoryBytes,
    OptionalInt hostCores,
    OptionalLong cgroupMemoryLimitBytes,
    OptionalLong postmasterPid,
    String user,
    boolean superuser) {

  /** The major version, e.g. 18 for 180001. */
  public int majorVersion() {
    return serverVersionNum / 10000;
  }
}
