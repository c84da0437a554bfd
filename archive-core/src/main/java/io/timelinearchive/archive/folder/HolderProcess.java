package io.timelinearchive.archive.folder;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * The process that holds a lock, as its lock file records it, so that a run on the same host can
 * tell at once that the holder died instead of waiting for its lease to run out.
 *
 * <p>The host is the host name plus, on Linux, the kernel's boot id and the process-id namespace:
 * two machines may share a name, and containers that share a host name (host networking) do not
 * share process ids; neither may judge the other's processes. Where the host cannot be told apart
 * (no name, or a name like {@code localhost} on a system without a boot id), it is unique to this
 * process, which turns the early takeover off. A process id alone could have been reused, so the
 * holder's start time must match too.
 *
 * @param host the host and process-id namespace the holder ran in
 * @param pid the holder's process id
 * @param started when the holder's process started, as the operating system reports it
 */
record HolderProcess(String host, long pid, Instant started) {
  private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");
  private static final Path PID_NAMESPACE = Path.of("/proc/self/ns/pid");
  private static final HolderProcess CURRENT = current();

  static HolderProcess ofThisProcess() {
    return CURRENT;
  }

  /**
   * True if this process ran on this host and is no longer running there: the id is free, or
   * another process (one that started at another time) now has it.
   */
  boolean isGone() {
    if (!host.equals(CURRENT.host)) {
      return false;
    }
    Optional<ProcessHandle> process = ProcessHandle.of(pid);
    if (process.isEmpty() || !process.get().isAlive()) {
      return true;
    }
    return process.get().info().startInstant().map(s -> !s.equals(started)).orElse(false);
  }

  private static HolderProcess current() {
    ProcessHandle self = ProcessHandle.current();
    return new HolderProcess(
        thisHost(), self.pid(), self.info().startInstant().orElse(Instant.EPOCH));
  }

  private static String thisHost() {
    String name;
    try {
      name = InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      name = "";
    }
    Optional<String> boot = linux(() -> Files.readString(BOOT_ID).strip());
    if (name.isEmpty() || (boot.isEmpty() && name.startsWith("localhost"))) {
      return "unidentified/" + UUID.randomUUID();
    }
    return name
        + boot.map(b -> "/" + b).orElse("")
        + linux(() -> "/" + Files.readSymbolicLink(PID_NAMESPACE)).orElse("");
  }

  private interface Probe {
    String get() throws IOException;
  }

  /** What Linux's /proc shows, or nothing elsewhere. */
  private static Optional<String> linux(Probe probe) {
    try {
      return Optional.of(probe.get());
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return Optional.empty();
    }
  }
}
