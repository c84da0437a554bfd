package io.timelinearchive.storage;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Thread factories for the pools of storages and the archiver. Their threads are daemons: a pool a
 * caller forgot to close, or one still draining after a failure, never keeps the JVM (a CLI run, a
 * Hudi writer) from exiting.
 */
public final class DaemonThreads {
  private DaemonThreads() {}

  /** Daemon threads all named {@code name}. */
  public static ThreadFactory factory(String name) {
    requireNonNull(name, "name is null");
    return task -> daemon(task, name);
  }

  /**
   * Daemon threads named {@code prefix} followed by 1, 2, ... in the order this factory made them.
   */
  public static ThreadFactory numbered(String prefix) {
    requireNonNull(prefix, "prefix is null");
    AtomicInteger made = new AtomicInteger();
    return task -> daemon(task, prefix + made.incrementAndGet());
  }

  private static Thread daemon(Runnable task, String name) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    return thread;
  }
}
