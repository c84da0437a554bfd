package io.timelinearchive.storage;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Threads that never keep a JVM alive: a forgotten pool must not hang a CLI run at exit. */
public final class DaemonThreads {
  private DaemonThreads() {}

  /** Daemon threads named {@code prefix-1}, {@code prefix-2}, … */
  public static ThreadFactory factory(String prefix) {
    AtomicInteger next = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, prefix + "-" + next.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
