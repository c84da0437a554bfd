package io.timelinearchive.hudi014;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.hudi.CallbackCounts;
import io.timelinearchive.hudi.TimelineArchiveCommitCallback;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.client.HoodieJavaWriteClient;
import org.apache.hudi.client.common.HoodieJavaEngineContext;
import org.apache.hudi.common.model.HoodieAvroPayload;
import org.apache.hudi.common.model.HoodieAvroRecord;
import org.apache.hudi.common.model.HoodieKey;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieActiveTimeline;
import org.apache.hudi.common.table.timeline.HoodieArchivedTimeline;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.config.HoodieWriteConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The callback, built against Hudi 0.15, on Hudi 0.14.1's own Java write client: Hudi 0.14 builds
 * it from the three keys, it archives after each commit (min 5, max 10), and Hudi 0.14's active and
 * archived timelines together hold every commit.
 */
class TestCallbackOnHudi014 {
  private static final Schema SCHEMA =
      new Schema.Parser()
          .parse(
              "{\"type\":\"record\",\"name\":\"event\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"},"
                  + "{\"name\":\"day\",\"type\":\"string\"},{\"name\":\"ts\",\"type\":\"long\"}]}");
  private static final int COMMITS = 25;

  @TempDir Path tmp;

  @Test
  void hudi014BuildsTheCallbackAndItArchives() throws Exception {
    String basePath = "file://" + tmp.resolve("events").toAbsolutePath();
    Configuration hadoop = new Configuration();
    HoodieTableMetaClient.withPropertyBuilder()
        .setTableType(HoodieTableType.COPY_ON_WRITE)
        .setTableName("events")
        .setRecordKeyFields("id")
        .setPartitionFields("day")
        .setPreCombineField("ts")
        .setPayloadClass(HoodieAvroPayload.class)
        .initTable(hadoop, basePath);
    Set<String> committed = new TreeSet<>();
    int mostActive = 0;
    try (HoodieJavaWriteClient<HoodieAvroPayload> client =
        new HoodieJavaWriteClient<>(new HoodieJavaEngineContext(hadoop), writeConfig(basePath))) {
      for (int i = 0; i < COMMITS; i++) {
        String time = client.startCommit();
        assertThat(client.commit(time, client.upsert(records(i), time))).isTrue();
        committed.add(time);
        mostActive = Math.max(mostActive, activeCommits(basePath, hadoop));
      }
    }
    CallbackCounts counts = TimelineArchiveCommitCallback.counts(basePath);
    System.out.printf(
        "Hudi 0.14.1: %d commits, at most %d active; %s%n", COMMITS, mostActive, counts);
    assertThat(counts.failures()).as(counts.lastFailure()).isZero();
    assertThat(counts.runs()).isEqualTo(COMMITS);
    assertThat(counts.instantsArchived()).isPositive();
    assertThat(mostActive).isLessThanOrEqualTo(10);

    HoodieTableMetaClient metaClient =
        HoodieTableMetaClient.builder().setConf(hadoop).setBasePath(basePath).build();
    Set<String> seen = new TreeSet<>();
    new HoodieActiveTimeline(metaClient, false)
        .getCommitsTimeline()
        .filterCompletedInstants()
        .getInstants()
        .forEach(i -> seen.add(i.getTimestamp()));
    HoodieArchivedTimeline archived = new HoodieArchivedTimeline(metaClient);
    archived.loadCompletedInstantDetailsInMemory();
    archived
        .getCommitsTimeline()
        .filterCompletedInstants()
        .getInstants()
        .forEach(
            i -> {
              assertThat(archived.getInstantDetails(i).get()).as("details of %s", i).isNotEmpty();
              seen.add(i.getTimestamp());
            });
    assertThat(seen).containsAll(committed);
  }

  private static int activeCommits(String basePath, Configuration hadoop) {
    HoodieTableMetaClient metaClient =
        HoodieTableMetaClient.builder().setConf(hadoop).setBasePath(basePath).build();
    return new HoodieActiveTimeline(metaClient, false)
        .getCommitsTimeline()
        .filterCompletedInstants()
        .countInstants();
  }

  private static HoodieWriteConfig writeConfig(String basePath) {
    Properties p = new Properties();
    p.put("hoodie.write.commit.callback.on", "true");
    p.put("hoodie.write.commit.callback.class", TimelineArchiveCommitCallback.class.getName());
    p.put("hoodie.archive.automatic", "false");
    p.put("hoodie.keep.min.commits", "5");
    p.put("hoodie.keep.max.commits", "10");
    p.put("hoodie.cleaner.commits.retained", "2");
    p.put("hoodie.datasource.write.recordkey.field", "id");
    p.put("hoodie.datasource.write.partitionpath.field", "day");
    p.put("hoodie.datasource.write.precombine.field", "ts");
    p.put("hoodie.index.type", "INMEMORY");
    p.put("hoodie.metadata.enable", "false");
    p.put("hoodie.embed.timeline.server", "false");
    p.put("hoodie.write.markers.type", "DIRECT");
    p.put("hoodie.auto.commit", "false");
    p.put("hoodie.upsert.shuffle.parallelism", "1");
    return HoodieWriteConfig.newBuilder()
        .withPath(basePath)
        .withSchema(SCHEMA.toString())
        .forTable("events")
        .withProps(p)
        .build();
  }

  private static List<HoodieRecord<HoodieAvroPayload>> records(int commit) {
    List<HoodieRecord<HoodieAvroPayload>> records = new ArrayList<>();
    for (int k = 0; k < 2; k++) {
      GenericRecord r = new GenericData.Record(SCHEMA);
      r.put("id", "e" + k);
      r.put("day", "d0");
      r.put("ts", (long) commit);
      records.add(
          new HoodieAvroRecord<>(
              new HoodieKey("e" + k, "d0"), new HoodieAvroPayload(Option.of(r))));
    }
    return records;
  }
}
