package io.timelinearchive.hudi;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.ArchiveListener;
import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.storage.DaemonThreads;
import io.timelinearchive.storage.StorageLocation;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The archiver runs of every table the callback serves in this JVM. Hudi builds a new callback for
 * each write client (Spark: for each write), so what must outlive one callback lives here: the one
 * run at a time per table, the failures logged once, the counts.
 */
final class TableArchivals {
  private static final Logger LOG = LoggerFactory.getLogger(TableArchivals.class);
  private static final TableArchivals SHARED = new TableArchivals();

  /** Background runs; daemon threads, so a writer's JVM never waits for one to exit. */
  private final ExecutorService background =
      Executors.newCachedThreadPool(DaemonThreads.numbered("timeline-archive-callback-"));

  private final Map<StorageLocation, Table> tables = new ConcurrentHashMap<>();
  private volatile Supplier<ArchiveListener> listeners = () -> ArchiveListener.NONE;

  static TableArchivals shared() {
    return SHARED;
  }

  CallbackCounts counts(String tableUri) {
    Table table = tables.get(StorageLocation.of(tableUri));
    return table == null ? CallbackCounts.NONE : table.counts();
  }

  /** Tests: a listener for each run to come, to pause a run at a phase. */
  void listenWith(Supplier<ArchiveListener> listeners) {
    this.listeners = requireNonNull(listeners, "listeners is null");
  }

  /**
   * Waits until no run of the table is in progress.
   *
   * @return false if one still is after {@code timeout}
   */
  boolean awaitIdle(String tableUri, Duration timeout) throws InterruptedException {
    Table table = tables.get(StorageLocation.of(tableUri));
    return table == null || table.awaitIdle(timeout);
  }

  /**
   * One commit of the table at {@code tableUri} was made: archive it as {@code settings} say.
   *
   * @throws IllegalStateException if archiving failed and {@code archive.callback.fail-on-error} is
   *     set (async: the failure of the previous background run)
   */
  void committed(String tableUri, String commitTime, CallbackSettings settings) {
    StorageLocation location = StorageLocation.of(tableUri);
    Table table = tables.computeIfAbsent(location, l -> new Table(tableUri));
    if (settings.hudiArchivesToo()) {
      table.skipBecauseHudiArchives();
      return;
    }
    if (settings.mode() == CallbackSettings.Mode.SYNC) {
      if (table.tryStart()) {
        try {
          table.run(commitTime, settings, listeners.get());
        } finally {
          table.finish();
        }
      }
    } else {
      table.throwBackgroundFailure(settings);
      if (table.tryStart()) {
        ArchiveListener listener = listeners.get();
        try {
          background.execute(
              () -> {
                try {
                  table.run(commitTime, settings, listener);
                } catch (RuntimeException e) {
                  table.keepBackgroundFailure(e);
                } finally {
                  table.finish();
                }
              });
        } catch (RuntimeException e) {
          table.finish();
          table.failed(commitTime, settings, e);
        }
      }
    }
  }

  /** Records that the callback could not read its settings, as a failure of the table's run. */
  void unreadableSettings(String tableUri, String commitTime, RuntimeException e, boolean fail) {
    Table table = tables.computeIfAbsent(StorageLocation.of(tableUri), l -> new Table(tableUri));
    table.countFailure(commitTime, e, fail);
    if (fail) {
      throw e;
    }
  }

  /** One table's runs and counts. */
  private static final class Table {
    private final String uri;
    private final AtomicBoolean running = new AtomicBoolean();
    private final Object idle = new Object();
    private final AtomicLong runs = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong skippedWhileRunning = new AtomicLong();
    private final AtomicLong skippedHudiArchives = new AtomicLong();
    private final AtomicLong instantsArchived = new AtomicLong();
    private final AtomicReference<String> lastFailure = new AtomicReference<>("");
    private final AtomicBoolean failureLogged = new AtomicBoolean();
    private final AtomicBoolean hudiArchivesLogged = new AtomicBoolean();
    private final AtomicReference<RuntimeException> backgroundFailure = new AtomicReference<>();

    Table(String uri) {
      this.uri = uri;
    }

    CallbackCounts counts() {
      return new CallbackCounts(
          runs.get(),
          failures.get(),
          skippedWhileRunning.get(),
          skippedHudiArchives.get(),
          instantsArchived.get(),
          lastFailure.get());
    }

    /** Claims the table's one run; false (and counted) if a run is in progress. */
    boolean tryStart() {
      if (running.compareAndSet(false, true)) {
        return true;
      }
      skippedWhileRunning.incrementAndGet();
      LOG.debug("timeline-archive: a run on {} is in progress; this commit starts none", uri);
      return false;
    }

    void finish() {
      synchronized (idle) {
        running.set(false);
        idle.notifyAll();
      }
    }

    boolean awaitIdle(Duration timeout) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      synchronized (idle) {
        while (running.get()) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            return false;
          }
          TimeUnit.NANOSECONDS.timedWait(idle, left);
        }
      }
      return true;
    }

    void skipBecauseHudiArchives() {
      skippedHudiArchives.incrementAndGet();
      if (hudiArchivesLogged.compareAndSet(false, true)) {
        LOG.warn(
            "timeline-archive: not archiving {}: Hudi's own archiver is on; set"
                + " hoodie.archive.automatic=false in the writer's options so that only one"
                + " archiver runs on the table",
            uri);
      }
    }

    /**
     * One archiver run; a failure is counted and logged once per table, and thrown only when {@code
     * archive.callback.fail-on-error} is set.
     */
    void run(String commitTime, CallbackSettings settings, ArchiveListener listener) {
      try (TimelineArchiver archiver =
          TimelineArchiver.open(uri, settings.archiverConfig(), listener)) {
        ArchiveResult result = archiver.archiveIfRequired();
        runs.incrementAndGet();
        int archived = result.archivedByAction().values().stream().mapToInt(i -> i).sum();
        instantsArchived.addAndGet(archived);
        if (archived > 0) {
          LOG.info(
              "timeline-archive: archived {} instants of {} after commit {} ({})",
              archived,
              uri,
              commitTime,
              result.barrier().message());
        }
      } catch (Exception | LinkageError e) {
        failed(commitTime, settings, e);
      }
    }

    void failed(String commitTime, CallbackSettings settings, Throwable e) {
      RuntimeException failure = countFailure(commitTime, e, settings.failOnError());
      if (settings.failOnError()) {
        throw failure;
      }
    }

    /** Counts and logs (the first time only) a failure; returns it as the write would see it. */
    RuntimeException countFailure(String commitTime, Throwable e, boolean failsTheWrite) {
      failures.incrementAndGet();
      String reason = e.getClass().getSimpleName() + ": " + e.getMessage();
      lastFailure.set(reason);
      if (failsTheWrite) {
        LOG.error(
            "timeline-archive: could not archive {} after commit {}: {}; failing the write"
                + " (archive.callback.fail-on-error=true)",
            uri,
            commitTime,
            reason);
      } else if (failureLogged.compareAndSet(false, true)) {
        LOG.warn(
            "timeline-archive: could not archive {} after commit {}: {}; the commit stands. Later"
                + " failures on this table are counted, not logged (set"
                + " archive.callback.fail-on-error=true to fail the write instead)",
            uri,
            commitTime,
            reason,
            e);
      } else {
        LOG.debug("timeline-archive: could not archive {} after commit {}", uri, commitTime, e);
      }
      return e instanceof RuntimeException r && !(e instanceof IllegalArgumentException)
          ? r
          : new IllegalStateException(
              "timeline-archive could not archive "
                  + uri
                  + " after commit "
                  + commitTime
                  + ": "
                  + reason,
              e);
    }

    void keepBackgroundFailure(RuntimeException e) {
      backgroundFailure.set(e);
    }

    /** Async with fail-on-error: the previous background run's failure fails this commit. */
    void throwBackgroundFailure(CallbackSettings settings) {
      RuntimeException failure = backgroundFailure.getAndSet(null);
      if (failure != null && settings.failOnError()) {
        throw failure;
      }
    }
  }
}
