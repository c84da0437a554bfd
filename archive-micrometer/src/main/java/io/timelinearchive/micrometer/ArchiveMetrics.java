package io.timelinearchive.micrometer;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.select.Barrier;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes each run's {@link ArchiveResult} to a Micrometer registry, every meter tagged with the
 * table. Counters add up over runs; the gauges hold the last run's values.
 *
 * <pre>{@code
 * ArchiveMetrics metrics = ArchiveMetrics.create(registry, "orders");
 * metrics.record(archiver.archiveIfRequired());
 * }</pre>
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><td>{@code timeline.archive.runs}</td><td>counter, tag {@code barrier} (why selection of
 *       commits stopped, e.g. {@code min_commits})</td></tr>
 *   <tr><td>{@code timeline.archive.instants}</td><td>counter, tag {@code action}</td></tr>
 *   <tr><td>{@code timeline.archive.instant.files}</td><td>counter: state files archived</td></tr>
 *   <tr><td>{@code timeline.archive.bytes.written}</td><td>counter, base unit bytes</td></tr>
 *   <tr><td>{@code timeline.archive.files.written}</td><td>counter, tag {@code mode}
 *       ({@code created} or {@code appended})</td></tr>
 *   <tr><td>{@code timeline.archive.files.deleted}</td><td>counter, tag {@code folder}
 *       ({@code active}, {@code aux}, or {@code archive} for files purged by {@code
 *       archive.history.max-age})</td></tr>
 *   <tr><td>{@code timeline.archive.requests}</td><td>counter, tag {@code type} (storage calls by
 *       kind)</td></tr>
 *   <tr><td>{@code timeline.archive.service.requests}</td><td>counter, tag {@code operation}
 *       (where the backend counts them)</td></tr>
 *   <tr><td>{@code timeline.archive.warnings}</td><td>counter</td></tr>
 *   <tr><td>{@code timeline.archive.phase}</td><td>timer, tag {@code phase}</td></tr>
 *   <tr><td>{@code timeline.archive.duration}</td><td>timer: whole runs</td></tr>
 *   <tr><td>{@code timeline.archive.active.instant.files}</td><td>gauge: left after the last
 *       run</td></tr>
 *   <tr><td>{@code timeline.archive.last.barrier}</td><td>gauge, tags {@code scope} and {@code
 *       kind}: 1 for the barrier of the last run in each scope, 0 for the other kinds</td></tr>
 * </table>
 */
public final class ArchiveMetrics {
  static final String PREFIX = "timeline.archive.";

  private final MeterRegistry registry;
  private final Tags tags;
  private final AtomicLong activeAfter = new AtomicLong();
  private final AtomicLong[][] lastBarrier =
      new AtomicLong[Barrier.Scope.values().length][Barrier.Kind.values().length];

  private ArchiveMetrics(MeterRegistry registry, Tags tags) {
    this.registry = registry;
    this.tags = tags;
    Gauge.builder(PREFIX + "active.instant.files", activeAfter, AtomicLong::get)
        .tags(tags)
        .description("instant state files left in the active timeline after the last run")
        .register(registry);
    for (Barrier.Scope scope : Barrier.Scope.values()) {
      for (Barrier.Kind kind : Barrier.Kind.values()) {
        AtomicLong value = new AtomicLong();
        lastBarrier[scope.ordinal()][kind.ordinal()] = value;
        Gauge.builder(PREFIX + "last.barrier", value, AtomicLong::get)
            .tags(tags.and("scope", lower(scope), "kind", lower(kind)))
            .description("1 for the rule that stopped the last run's selection in this scope")
            .register(registry);
      }
    }
  }

  /**
   * @param table tags every meter, so one registry can serve several tables
   */
  public static ArchiveMetrics create(MeterRegistry registry, String table) {
    requireNonNull(registry, "registry is null");
    requireNonNull(table, "table is null");
    return new ArchiveMetrics(registry, Tags.of("table", table));
  }

  public void record(ArchiveResult result) {
    requireNonNull(result, "result is null");
    counter("runs", "barrier", lower(result.barrier().kind())).increment();
    result
        .archivedByAction()
        .forEach((action, n) -> counter("instants", "action", action).increment(n));
    counter("instant.files").increment(result.archived().size());
    long bytes = 0;
    for (ArchiveResult.WrittenFile f : result.archiveFilesWritten()) {
      bytes += f.bytesWritten();
      counter("files.written", "mode", f.appended() ? "appended" : "created").increment();
    }
    Counter.builder(PREFIX + "bytes.written")
        .tags(tags)
        .baseUnit("bytes")
        .register(registry)
        .increment(bytes);
    counter("files.deleted", "folder", "active").increment(result.filesDeleted());
    counter("files.deleted", "folder", "aux").increment(result.auxFilesDeleted());
    counter("files.deleted", "folder", "archive").increment(result.archiveFilesPurged().size());
    counter("files.merged").increment(result.archiveFilesMerged().size());
    result.requests().asMap().forEach((type, n) -> counter("requests", "type", type).increment(n));
    result
        .serviceRequests()
        .forEach(
            (operation, n) -> counter("service.requests", "operation", operation).increment(n));
    counter("warnings").increment(result.warnings().size());
    result
        .phases()
        .forEach(
            (phase, d) ->
                Timer.builder(PREFIX + "phase")
                    .tags(tags.and("phase", phase))
                    .register(registry)
                    .record(d));
    Timer.builder(PREFIX + "duration").tags(tags).register(registry).record(result.duration());
    activeAfter.set(result.activeAfter());
    for (AtomicLong[] scope : lastBarrier) {
      for (AtomicLong kind : scope) {
        kind.set(0);
      }
    }
    for (Barrier b : result.barriers()) {
      lastBarrier[b.scope().ordinal()][b.kind().ordinal()].set(1);
    }
  }

  private Counter counter(String name, String... tagPairs) {
    return Counter.builder(PREFIX + name).tags(tags.and(tagPairs)).register(registry);
  }

  private static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }
}
