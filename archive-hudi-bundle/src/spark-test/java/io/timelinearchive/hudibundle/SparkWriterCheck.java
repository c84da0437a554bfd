package io.timelinearchive.hudibundle;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.hudi.CallbackCounts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How users run the callback: Spark 3.5 in local mode, Hudi 0.15's Spark bundle and our bundle jar
 * on the class path, DataFrame writes with {@code format("hudi")} and the three keys. Over 40
 * commits the timeline stays within min/max 5/10, and a Spark read returns every record written.
 */
class SparkWriterCheck {
  private static final int COMMITS = 40;
  private static final int NEW_KEYS_PER_COMMIT = 5;
  private static final Pattern COMPLETED_COMMIT = Pattern.compile("\\d+\\.commit");

  @TempDir Path tmp;

  @Test
  void sparkWritesWithTheCallbackAndTheTimelineStaysBounded() throws Exception {
    Path table = tmp.resolve("orders");
    String basePath = "file://" + table.toAbsolutePath();
    long started = System.nanoTime();
    int mostActive = 0;
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("timeline-archive callback check")
            .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
            .config("spark.sql.extensions", "org.apache.spark.sql.hudi.HoodieSparkSessionExtension")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .getOrCreate();
    try {
      for (int commit = 0; commit < COMMITS; commit++) {
        batch(spark, commit)
            .write()
            .format("hudi")
            .options(options())
            .mode(commit == 0 ? SaveMode.Overwrite : SaveMode.Append)
            .save(basePath);
        int active = completedCommits(table);
        mostActive = Math.max(mostActive, active);
        assertThat(active).as("completed commits active after commit %d", commit + 1).isLessThanOrEqualTo(10);
      }
      Dataset<Row> read = spark.read().format("hudi").load(basePath);
      assertThat(read.count()).isEqualTo((long) COMMITS * NEW_KEYS_PER_COMMIT);
      assertThat(read.select("id").distinct().count()).isEqualTo((long) COMMITS * NEW_KEYS_PER_COMMIT);
      // Spark's JSON reader infers whole numbers as long
      assertThat(read.agg(org.apache.spark.sql.functions.max("round")).first().getLong(0))
          .isEqualTo(COMMITS - 1L);
    } finally {
      spark.stop();
    }
    CallbackCounts counts = CallbackCounts.forTable(basePath);
    System.out.printf(
        "Spark 3.5 + Hudi 0.15 bundle + our bundle: %d commits in %d s, at most %d completed"
            + " commits active; %s; archived files %s%n",
        COMMITS,
        (System.nanoTime() - started) / 1_000_000_000L,
        mostActive,
        counts,
        archiveFiles(table));
    assertThat(counts.failures()).as(counts.lastFailure()).isZero();
    assertThat(counts.runs()).isEqualTo(COMMITS);
    assertThat(counts.instantsArchived()).isPositive();
    assertThat(archiveFiles(table)).isNotEmpty();
  }

  /** Five new orders, and every earlier order's round updated to this commit's. */
  private static Dataset<Row> batch(SparkSession spark, int commit) {
    List<String> rows = new ArrayList<>();
    for (int k = 0; k < NEW_KEYS_PER_COMMIT; k++) {
      rows.add(
          String.format(
              "{\"id\":\"o-%d-%d\",\"region\":\"r%d\",\"round\":%d,\"ts\":%d}",
              commit, k, k % 2, commit, commit));
    }
    return spark.read().json(spark.createDataset(rows, Encoders.STRING()));
  }

  private static Map<String, String> options() {
    return Map.ofEntries(
        Map.entry("hoodie.table.name", "orders"),
        Map.entry("hoodie.datasource.write.recordkey.field", "id"),
        Map.entry("hoodie.datasource.write.partitionpath.field", "region"),
        Map.entry("hoodie.datasource.write.precombine.field", "ts"),
        Map.entry("hoodie.datasource.write.operation", "upsert"),
        Map.entry("hoodie.write.commit.callback.on", "true"),
        Map.entry(
            "hoodie.write.commit.callback.class",
            "io.timelinearchive.hudi.TimelineArchiveCommitCallback"),
        Map.entry("hoodie.archive.automatic", "false"),
        Map.entry("hoodie.keep.min.commits", "5"),
        Map.entry("hoodie.keep.max.commits", "10"),
        Map.entry("hoodie.cleaner.commits.retained", "2"),
        Map.entry("hoodie.upsert.shuffle.parallelism", "2"),
        Map.entry("hoodie.insert.shuffle.parallelism", "2"));
  }

  private static int completedCommits(Path table) throws IOException {
    try (Stream<Path> files = Files.list(table.resolve(".hoodie"))) {
      return (int)
          files.filter(f -> COMPLETED_COMMIT.matcher(f.getFileName().toString()).matches()).count();
    }
  }

  private static List<String> archiveFiles(Path table) throws IOException {
    try (Stream<Path> files = Files.list(table.resolve(".hoodie/archived"))) {
      return files
          .map(f -> f.getFileName().toString())
          .filter(n -> n.startsWith(".commits_"))
          .sorted()
          .toList();
    }
  }
}
