package io.timelinearchive.select;

import io.timelinearchive.select.TableFacts.LatestClean;
import io.timelinearchive.select.TableFacts.MetadataTable;
import io.timelinearchive.select.TableFacts.TableType;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.Timeline;
import io.timelinearchive.timeline.TimelineInstant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/** A generated table: its timeline, facts, archival settings and the time of the run. */
record Scenario(
    Timeline timeline,
    TableFacts facts,
    ArchivalPolicy policy,
    java.time.Instant now,
    Map<String, String> config) {

  private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");
  private static final LocalDateTime START = LocalDateTime.of(2025, 12, 1, 0, 0);

  /** One instant to generate: what it is, how far it got, how long after the previous one. */
  record Spec(Action action, State reached, long gapSeconds, boolean savepointed) {}

  @Override
  public String toString() {
    return "Scenario[facts="
        + facts
        + ", config="
        + config
        + ", now="
        + now
        + ", "
        + timeline.size()
        + " files: "
        + timeline.instants()
        + "]";
  }

  static Arbitrary<Scenario> scenarios(int maxInstants) {
    return Arbitraries.of(TableType.class).flatMap(type -> scenarios(type, maxInstants));
  }

  private static Arbitrary<Scenario> scenarios(TableType tableType, int maxInstants) {
    Arbitrary<List<Spec>> specs =
        // sizes drawn evenly: jqwik's own list sizes lean small, and small timelines rarely reach
        // hoodie.keep.max.commits
        Arbitraries.of(IntStream.rangeClosed(0, maxInstants).boxed().toList())
            .flatMap(
                size ->
                    Arbitraries.oneOf(
                        specs(tableType, true).list().ofSize(size),
                        specs(tableType, false).list().ofSize(size)));
    Arbitrary<Map<String, String>> config = configs();
    // fixed offsets: a zone with summer time has local times that never happen or happen twice,
    // where reading a time as a date is a guess either way
    Arbitrary<ZoneId> zone = Arbitraries.of(ZoneId.of("UTC"), ZoneId.of("+05:30"));
    Arbitrary<Integer> metadataChoice = Arbitraries.integers().between(0, 1000);
    Arbitrary<Long> nowAfterLast = Arbitraries.longs().between(0, 20 * 86_400L);
    Arbitrary<Integer> cleanChoice = Arbitraries.integers().between(0, 1000);
    return Combinators.combine(specs, config, zone, metadataChoice, nowAfterLast, cleanChoice)
        .as((l, c, z, m, n, cc) -> build(l, c, tableType, z, m, n, cc));
  }

  // mostly the actions each table type writes (merge-on-read: delta commits, with compactions
  // completing as commits), with a few of the other kind
  private static Arbitrary<Spec> specs(TableType tableType, boolean withPending) {
    boolean mor = tableType == TableType.MERGE_ON_READ;
    Arbitrary<Action> actions =
        Arbitraries.frequencyOf(
            Tuple.of(mor ? 1 : 20, Arbitraries.just(Action.COMMIT)),
            Tuple.of(mor ? 20 : 1, Arbitraries.just(Action.DELTA_COMMIT)),
            Tuple.of(1, Arbitraries.just(Action.REPLACE_COMMIT)),
            Tuple.of(mor ? 2 : 0, Arbitraries.just(Action.COMPACTION)),
            Tuple.of(mor ? 2 : 0, Arbitraries.just(Action.LOG_COMPACTION)),
            Tuple.of(6, Arbitraries.just(Action.CLEAN)),
            Tuple.of(4, Arbitraries.just(Action.ROLLBACK)),
            Tuple.of(1, Arbitraries.just(Action.SAVEPOINT)),
            Tuple.of(1, Arbitraries.just(Action.RESTORE)),
            Tuple.of(1, Arbitraries.just(Action.INDEXING)),
            Tuple.of(1, Arbitraries.just(Action.SCHEMA_COMMIT)));
    Arbitrary<State> states =
        withPending
            ? Arbitraries.frequency(
                Tuple.of(40, State.COMPLETED),
                Tuple.of(1, State.INFLIGHT),
                Tuple.of(1, State.REQUESTED))
            : Arbitraries.just(State.COMPLETED);
    Arbitrary<Long> gaps =
        Arbitraries.oneOf(
            Arbitraries.longs().between(1, 120), Arbitraries.longs().between(120, 86_400));
    Arbitrary<Boolean> savepointed = Arbitraries.frequency(Tuple.of(40, false), Tuple.of(1, true));
    return Combinators.combine(actions, states, gaps, savepointed).as(Spec::new);
  }

  private static Arbitrary<Map<String, String>> configs() {
    return Builders.withBuilder(HashMap<String, String>::new)
        .use(Arbitraries.integers().between(1, 8))
        .in((m, min) -> put(m, ArchivalPolicy.MIN_COMMITS.key(), min))
        .use(Arbitraries.integers().between(1, 8))
        .in(
            (m, more) ->
                put(
                    m,
                    ArchivalPolicy.MAX_COMMITS.key(),
                    Integer.parseInt(m.get(ArchivalPolicy.MIN_COMMITS.key())) + more))
        .use(Arbitraries.of(true, false))
        .in((m, beyond) -> put(m, ArchivalPolicy.ARCHIVE_BEYOND_SAVEPOINT.key(), beyond))
        // the cleaner widens min and max, most with many retained commits or hours: keep them
        // small enough that generated timelines still archive
        .use(
            Arbitraries.frequency(
                Tuple.of(2, ArchivalPolicy.CleanerPolicy.KEEP_LATEST_FILE_VERSIONS),
                Tuple.of(2, ArchivalPolicy.CleanerPolicy.KEEP_LATEST_COMMITS),
                Tuple.of(1, ArchivalPolicy.CleanerPolicy.KEEP_LATEST_BY_HOURS)))
        .in((m, cleaner) -> put(m, ArchivalPolicy.CLEANER_POLICY.key(), cleaner))
        .use(Arbitraries.integers().between(0, 8))
        .in((m, retained) -> put(m, ArchivalPolicy.CLEANER_COMMITS_RETAINED.key(), retained))
        .use(Arbitraries.integers().between(0, 6))
        .in((m, hours) -> put(m, ArchivalPolicy.CLEANER_HOURS_RETAINED.key(), hours))
        .use(Arbitraries.integers().between(1, 20))
        .in((m, deltas) -> put(m, ArchivalPolicy.COMPACTION_MAX_DELTA_COMMITS.key(), deltas))
        .use(Arbitraries.of(ArchivalPolicy.CompactionTrigger.class))
        .in((m, trigger) -> put(m, ArchivalPolicy.COMPACTION_TRIGGER.key(), trigger))
        .use(Arbitraries.integers().between(0, 24 * 15).injectNull(0.6))
        .in(
            (m, hours) ->
                hours == null ? m : put(m, ArchivalPolicy.RETAIN_MIN_AGE.key(), hours + "h"))
        .use(Arbitraries.integers().between(1, 40).injectNull(0.6))
        .in((m, cap) -> cap == null ? m : put(m, ArchivalPolicy.MAX_INSTANTS_PER_RUN.key(), cap))
        .build(Map::copyOf);
  }

  private static HashMap<String, String> put(
      HashMap<String, String> map, String key, Object value) {
    map.put(key, String.valueOf(value));
    return map;
  }

  private static Scenario build(
      List<Spec> specs,
      Map<String, String> config,
      TableType tableType,
      ZoneId zone,
      int metadataChoice,
      long nowAfterLast,
      int cleanChoice) {
    List<TimelineInstant> files = new ArrayList<>();
    List<String> times = new ArrayList<>();
    LocalDateTime time = START;
    for (Spec spec : specs) {
      time = time.plusSeconds(spec.gapSeconds()).plusNanos(1_000_000L * (spec.gapSeconds() % 1000));
      String t = MILLIS.format(time);
      times.add(t);
      State reached = spec.reached();
      if (spec.action() == Action.SAVEPOINT && reached == State.REQUESTED) {
        reached = State.INFLIGHT;
      }
      files.addAll(TimelineFixture.stateFiles(spec.action(), t, reached));
      // Hudi savepoints a commit under the commit's own time
      if (spec.savepointed() && spec.action().isWriteAction() && reached == State.COMPLETED) {
        files.addAll(TimelineFixture.stateFiles(Action.SAVEPOINT, t, State.COMPLETED));
      }
    }
    Optional<MetadataTable> metadataTable;
    if (metadataChoice < 600) {
      metadataTable = Optional.empty();
    } else if (metadataChoice < 700 || times.isEmpty()) {
      metadataTable = Optional.of(MetadataTable.notCompactedYet());
    } else {
      // a data table time, or just after one, as metadata table compactions are
      String at = times.get((metadataChoice - 700) * times.size() / 301);
      metadataTable =
          Optional.of(MetadataTable.compactedAt(metadataChoice % 2 == 0 ? at : at + "001"));
    }
    Timeline timeline = Timeline.of(files);
    // the latest clean's plan: mostly given, retaining from some earlier time (or nothing, as
    // with KEEP_LATEST_FILE_VERSIONS); sometimes missing, sometimes about an older clean
    String latestCleanTime = null;
    for (TimelineInstant file : timeline.instants()) {
      if (file.action() == Action.CLEAN && file.isCompleted()) {
        latestCleanTime = file.time();
      }
    }
    Optional<LatestClean> latestClean = Optional.empty();
    if (latestCleanTime != null && cleanChoice >= 200) {
      String cleanTime = cleanChoice < 300 ? times.get(0) : latestCleanTime;
      Optional<String> retainedFrom =
          cleanChoice < 400
              ? Optional.empty()
              : Optional.of(times.get((cleanChoice - 400) * times.size() / 601));
      latestClean = Optional.of(new LatestClean(cleanTime, retainedFrom));
    }
    LocalDateTime nowLocal = time.plusSeconds(nowAfterLast);
    return new Scenario(
        timeline,
        new TableFacts(tableType, zone, metadataTable, latestClean, Optional.empty()),
        ArchivalPolicy.fromConfig(config),
        nowLocal.atZone(zone).toInstant(),
        config);
  }
}
