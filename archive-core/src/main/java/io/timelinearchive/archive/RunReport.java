package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.select.Barrier;
import io.timelinearchive.storage.RequestCounts;
import io.timelinearchive.timeline.TimelineFile;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * What one run has done so far, gathered as it goes: the time spent in each {@link Phase} (the
 * listener is told as each begins), warnings, files recovered, written and deleted, and the storage
 * requests made; {@link #result} turns it into the run's {@link ArchiveResult}.
 */
public final class RunReport {
  private final CountingMetaStorage storage;
  private final ArchiveListener listener;
  private final LongSupplier nanoTime;
  private final RequestCounts requestsBefore;
  private final Map<String, Long> serviceRequestsBefore;

  private final Map<Phase, Duration> phases = new LinkedHashMap<>();
  private final Set<Phase> entered = EnumSet.noneOf(Phase.class);
  private Phase current;
  private long phaseStart;

  private final List<String> warnings = new ArrayList<>();
  private final List<TimelineInstant> recovered = new ArrayList<>();
  private final List<ArchiveResult.WrittenFile> written = new ArrayList<>();
  private int activeBefore;
  private int deleted;
  private int auxDeleted;
  private List<String> purged = List.of();
  private final List<String> mergedSources = new ArrayList<>();
  private Optional<String> mergedFile = Optional.empty();

  RunReport(CountingMetaStorage storage, ArchiveListener listener, LongSupplier nanoTime) {
    this.storage = requireNonNull(storage, "storage is null");
    this.listener = requireNonNull(listener, "listener is null");
    this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
    this.requestsBefore = storage.counts();
    this.serviceRequestsBefore = storage.serviceRequests();
    this.phaseStart = nanoTime.getAsLong();
  }

  /** Ends the current phase and begins {@code phase}, telling the listener the first time. */
  public void enter(Phase phase) throws IOException {
    stopClock();
    current = phase;
    if (entered.add(phase)) {
      listener.onPhase(phase);
    }
  }

  /** Tells the listener how far the current long phase has come. */
  public void progress(Phase phase, long done, long total) throws IOException {
    listener.onProgress(phase, done, total);
  }

  private void stopClock() {
    long now = nanoTime.getAsLong();
    if (current != null) {
      phases.merge(current, Duration.ofNanos(now - phaseStart), Duration::plus);
    }
    phaseStart = now;
  }

  public void warn(String warning) {
    warnings.add(requireNonNull(warning, "warning is null"));
  }

  public void warnAll(List<String> more) {
    more.forEach(this::warn);
  }

  void activeBefore(int files) {
    activeBefore = files;
  }

  void recovered(List<TimelineFile> files) {
    files.forEach(f -> recovered.add(f.instant()));
  }

  void deleted(int files) {
    deleted += files;
  }

  void auxDeleted(int files) {
    auxDeleted += files;
  }

  public void written(List<ArchiveResult.WrittenFile> files) {
    written.addAll(files);
  }

  public List<ArchiveResult.WrittenFile> written() {
    return written;
  }

  /**
   * The archive files a merge or compaction replaced by {@code mergedFile}; of several in one run
   * (a compaction that cascades through layers), the sources add up and the last file is kept.
   */
  public void merged(List<String> sources, String mergedFile) {
    mergedSources.addAll(sources);
    this.mergedFile = Optional.of(mergedFile);
  }

  public void purged(List<String> files) {
    purged = List.copyOf(files);
  }

  /**
   * The run's result, once the lock is released (so that its request counts include the release).
   *
   * @param archived the state files archived
   * @param barrier what stopped the commits of this run (the plan's, or an unreadable file)
   */
  ArchiveResult result(ArchivalPlan plan, List<TimelineInstant> archived, Barrier barrier) {
    stopClock();
    current = null;
    Map<String, Integer> byAction = new TreeMap<>();
    archived.stream()
        .map(TimelineInstant::key)
        .distinct()
        .forEach(k -> byAction.merge(k.action().actionName(), 1, Integer::sum));
    Map<String, Duration> timings = new LinkedHashMap<>();
    phases.forEach((phase, time) -> timings.put(phase.key(), time));
    return new ArchiveResult(
        archived,
        new TreeMap<>(byAction),
        recovered,
        written,
        deleted,
        auxDeleted,
        barrier,
        plan.barriers(),
        warnings,
        storage.counts().minus(requestsBefore),
        serviceRequestsSince(),
        timings,
        activeBefore,
        activeBefore - deleted,
        purged,
        mergedSources,
        mergedFile);
  }

  private Map<String, Long> serviceRequestsSince() {
    Map<String, Long> delta = new TreeMap<>();
    storage
        .serviceRequests()
        .forEach(
            (operation, n) -> {
              long d = n - serviceRequestsBefore.getOrDefault(operation, 0L);
              if (d > 0) {
                delta.put(operation, d);
              }
            });
    return delta;
  }
}
