package io.timelinearchive.hudi05;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.avro.model.HoodieActionInstant;
import org.apache.hudi.avro.model.HoodieCleanerPlan;
import org.apache.hudi.avro.model.HoodieCompactionOperation;
import org.apache.hudi.avro.model.HoodieCompactionPlan;
import org.apache.hudi.common.HoodieCleanStat;
import org.apache.hudi.common.HoodieRollbackStat;
import org.apache.hudi.common.model.HoodieCleaningPolicy;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.model.HoodieWriteStat;
import org.apache.hudi.common.model.TimelineLayoutVersion;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.HoodieTimeline;
import org.apache.hudi.common.table.timeline.HoodieActiveTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieInstant.State;
import org.apache.hudi.common.util.AvroUtils;
import org.apache.hudi.common.util.CleanerUtils;
import org.apache.hudi.common.util.CompactionUtils;
import org.apache.hudi.common.util.ConsistencyGuardConfig;
import org.apache.hudi.common.util.Option;

/**
 * Writes a table's timeline with Hudi 0.5.3's own {@link HoodieActiveTimeline}, each action through
 * the calls 0.5.3's write client makes, in its order (read from the bytecode of {@code
 * HoodieWriteClient}, {@code AbstractHoodieWriteClient} and {@code HoodieCleanClient} in
 * hudi-spark-bundle_2.11 0.5.3; the write client itself needs Spark). The timeline layout decides
 * what stays: in layout 0 each transition renames the instant's one file, in layout 1 each state
 * gets a file of its own. The contents are 0.5.3's own records and JSON: commit metadata with one
 * write stat, cleaner plans and clean metadata, rollback and savepoint metadata, compaction plans.
 * No data files are written; the timeline does not need them.
 */
final class Hudi05Tables {
  static final String TABLE_NAME = "trips";
  private static final String PARTITION = "p0";

  private final HoodieTableMetaClient metaClient;
  private final HoodieActiveTimeline timeline;

  private Hudi05Tables(HoodieTableMetaClient metaClient) {
    this.metaClient = metaClient;
    this.timeline = metaClient.getActiveTimeline();
  }

  /** A meta client that writes {@code layoutVersion}, as 0.5.3's writers configured so do. */
  static HoodieTableMetaClient metaClient(String basePath, int layoutVersion) {
    return new HoodieTableMetaClient(
        new Configuration(),
        basePath,
        true,
        ConsistencyGuardConfig.newBuilder().build(),
        Option.of(new TimelineLayoutVersion(layoutVersion)));
  }

  /**
   * Creates the table ({@code hoodie.properties} by 0.5.3's {@code initTableType}, which records
   * the layout version) and writes {@code steps}, each {@code "<kind> <time> [<argument>]"}:
   *
   * <ul>
   *   <li>{@code commit T} / {@code deltacommit T}: requested, inflight with the workload,
   *       completed with the commit metadata;
   *   <li>{@code pending-commit T} / {@code pending-deltacommit T}: requested, then inflight: a
   *       write in progress (in layout 0 a commit's is the lone {@code T.inflight});
   *   <li>{@code clean T E}: requested and inflight with the cleaner plan, completed with the clean
   *       metadata; {@code E} is the earliest commit the cleaner retains;
   *   <li>{@code pending-clean T E}: requested, then inflight: a clean in progress;
   *   <li>{@code rollback T F}: rolls back the pending write {@code F} (its files go), then the
   *       rollback's inflight and completed;
   *   <li>{@code savepoint T}: inflight, completed (savepoints name a commit's own time in Hudi, so
   *       {@code T} is that commit's);
   *   <li>{@code compaction T}: plan requested (also copied to {@code .aux/}), inflight, completed
   *       as a commit; {@code requested-compaction T}: only the plan.
   * </ul>
   */
  static void write(String basePath, String tableType, int layoutVersion, List<String> steps)
      throws IOException {
    HoodieTableMetaClient.initTableType(
        new Configuration(),
        basePath,
        HoodieTableType.valueOf(tableType),
        TABLE_NAME,
        null,
        "org.apache.hudi.common.model.HoodieAvroPayload",
        layoutVersion);
    Hudi05Tables table = new Hudi05Tables(metaClient(basePath, layoutVersion));
    for (String step : steps) {
      table.apply(step.split(" "));
    }
  }

  private void apply(String[] step) throws IOException {
    String time = step[1];
    switch (step[0]) {
      case "commit" -> write(HoodieTimeline.COMMIT_ACTION, time, true);
      case "deltacommit" -> write(HoodieTimeline.DELTA_COMMIT_ACTION, time, true);
      case "pending-commit" -> write(HoodieTimeline.COMMIT_ACTION, time, false);
      case "pending-deltacommit" -> write(HoodieTimeline.DELTA_COMMIT_ACTION, time, false);
      case "clean" -> clean(time, step[2], true);
      case "pending-clean" -> clean(time, step[2], false);
      case "rollback" -> rollback(time, step[2]);
      case "savepoint" -> savepoint(time);
      case "compaction" -> compaction(time, true);
      case "requested-compaction" -> compaction(time, false);
      default -> throw new IllegalArgumentException("unknown step " + String.join(" ", step));
    }
  }

  /** HoodieWriteClient: startCommit, then upsert's workload on the inflight, then commit. */
  private void write(String action, String time, boolean complete) throws IOException {
    HoodieInstant requested = new HoodieInstant(State.REQUESTED, action, time);
    timeline.createNewInstant(requested);
    timeline.transitionRequestedToInflight(requested, Option.of(workload(time)), false);
    if (complete) {
      timeline.saveAsComplete(
          new HoodieInstant(true, action, time), Option.of(commitMetadata(time, false)));
    }
  }

  /** HoodieCleanClient: scheduleClean saves the plan as requested; runClean moves it on. */
  private void clean(String time, String earliestRetained, boolean complete) throws IOException {
    HoodieInstant requested = new HoodieInstant(State.REQUESTED, HoodieTimeline.CLEAN_ACTION, time);
    Map<String, List<String>> toDelete = new HashMap<>();
    toDelete.put(PARTITION, List.of(dataFile(earliestRetained + "-old")));
    HoodieCleanerPlan plan =
        new HoodieCleanerPlan(
            new HoodieActionInstant(
                earliestRetained, HoodieTimeline.COMMIT_ACTION, State.COMPLETED.name()),
            HoodieCleaningPolicy.KEEP_LATEST_COMMITS.name(),
            toDelete,
            1);
    timeline.saveToCleanRequested(requested, AvroUtils.serializeCleanerPlan(plan));
    HoodieInstant inflight =
        timeline.transitionCleanRequestedToInflight(
            requested, AvroUtils.serializeCleanerPlan(plan));
    if (complete) {
      HoodieCleanStat stat =
          HoodieCleanStat.newBuilder()
              .withPolicy(HoodieCleaningPolicy.KEEP_LATEST_COMMITS)
              .withPartitionPath(PARTITION)
              .withDeletePathPattern(toDelete.get(PARTITION))
              .withSuccessfulDeletes(toDelete.get(PARTITION))
              .withFailedDeletes(Collections.emptyList())
              .withEarliestCommitRetained(
                  Option.of(
                      new HoodieInstant(false, HoodieTimeline.COMMIT_ACTION, earliestRetained)))
              .build();
      timeline.transitionCleanInflightToComplete(
          inflight,
          AvroUtils.serializeCleanMetadata(
              CleanerUtils.convertCleanMetadata(metaClient, time, Option.of(12L), List.of(stat))));
    }
  }

  /**
   * AbstractHoodieWriteClient.rollbackInternal: the table drops the failed write's pending files,
   * then the rollback instant is created inflight and saved complete.
   */
  private void rollback(String time, String failed) throws IOException {
    for (HoodieInstant pending :
        new HoodieActiveTimeline(metaClient, false)
            .filterInflightsAndRequested()
            .filter(i -> i.getTimestamp().equals(failed))
            .getInstants()
            .toArray(HoodieInstant[]::new)) {
      timeline.deletePending(pending);
    }
    HoodieInstant inflight = new HoodieInstant(true, HoodieTimeline.ROLLBACK_ACTION, time);
    timeline.createNewInstant(inflight);
    HoodieRollbackStat stat =
        new HoodieRollbackStat(
            PARTITION, List.of(dataFile(failed)), Collections.emptyList(), Collections.emptyMap());
    timeline.saveAsComplete(
        inflight,
        AvroUtils.serializeRollbackMetadata(
            AvroUtils.convertRollbackMetadata(
                time, Option.of(7L), List.of(failed), List.of(stat))));
  }

  /** HoodieWriteClient.savepoint: inflight, then complete with the files the savepoint keeps. */
  private void savepoint(String time) throws IOException {
    HoodieInstant inflight = new HoodieInstant(true, HoodieTimeline.SAVEPOINT_ACTION, time);
    timeline.createNewInstant(inflight);
    Map<String, List<String>> files = new HashMap<>();
    files.put(PARTITION, List.of(dataFile(time)));
    timeline.saveAsComplete(
        inflight,
        AvroUtils.serializeSavepointMetadata(
            AvroUtils.convertSavepointMetadata("timeline-archive", "interop test", files)));
  }

  /**
   * HoodieWriteClient.scheduleCompaction saves the plan (in .hoodie/ and .hoodie/.aux/); running it
   * moves it inflight, committing it completes it as a commit.
   */
  private void compaction(String time, boolean complete) throws IOException {
    HoodieInstant requested =
        new HoodieInstant(State.REQUESTED, HoodieTimeline.COMPACTION_ACTION, time);
    Map<String, Double> metrics = new HashMap<>();
    metrics.put("TOTAL_LOG_FILES", 2.0);
    HoodieCompactionOperation operation =
        new HoodieCompactionOperation(
            time,
            List.of("." + fileId() + "_" + time + ".log.1_1-0-1"),
            dataFile(time),
            fileId(),
            PARTITION,
            metrics);
    HoodieCompactionPlan plan =
        new HoodieCompactionPlan(
            new ArrayList<>(List.of(operation)),
            new HashMap<>(),
            CompactionUtils.LATEST_COMPACTION_METADATA_VERSION);
    timeline.saveToCompactionRequested(requested, AvroUtils.serializeCompactionPlan(plan));
    if (complete) {
      HoodieInstant inflight = timeline.transitionCompactionRequestedToInflight(requested);
      timeline.transitionCompactionInflightToComplete(
          inflight, Option.of(commitMetadata(time, true)));
    }
  }

  private static byte[] workload(String time) throws IOException {
    HoodieCommitMetadata workload = new HoodieCommitMetadata();
    HoodieWriteStat stat = new HoodieWriteStat();
    stat.setFileId(fileId());
    stat.setPartitionPath(PARTITION);
    stat.setPrevCommit(HoodieWriteStat.NULL_COMMIT);
    stat.setNumInserts(4);
    workload.addWriteStat(PARTITION, stat);
    return workload.toJsonString().getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] commitMetadata(String time, boolean compacted) throws IOException {
    HoodieCommitMetadata metadata = new HoodieCommitMetadata(compacted);
    HoodieWriteStat stat = new HoodieWriteStat();
    stat.setFileId(fileId());
    stat.setPath(PARTITION + "/" + dataFile(time));
    stat.setPrevCommit(HoodieWriteStat.NULL_COMMIT);
    stat.setPartitionPath(PARTITION);
    stat.setNumWrites(4);
    stat.setNumInserts(4);
    stat.setNumUpdateWrites(Long.parseLong(time.substring(time.length() - 2)));
    stat.setTotalWriteBytes(435_000 + Long.parseLong(time.substring(time.length() - 4)));
    stat.setFileSizeInBytes(435_000);
    metadata.addWriteStat(PARTITION, stat);
    metadata.addMetadata(
        HoodieCommitMetadata.SCHEMA_KEY, "{\"type\":\"record\",\"name\":\"trip\"}");
    return metadata.toJsonString().getBytes(StandardCharsets.UTF_8);
  }

  private static String fileId() {
    return "3e4f1a2b-0000-4000-8000-000000000001-0";
  }

  private static String dataFile(String time) {
    return fileId() + "_1-0-1_" + time + ".parquet";
  }
}
