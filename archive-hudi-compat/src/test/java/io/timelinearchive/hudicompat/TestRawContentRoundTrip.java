package io.timelinearchive.hudicompat;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.format.ArchivedInstant;
import io.timelinearchive.format.EntryFields;
import io.timelinearchive.format.RawContent;
import io.timelinearchive.hudicompat.HudiView.Id;
import io.timelinearchive.hudicompat.HudiView.ScannedBlock;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;
import org.apache.hudi.common.model.HoodieTableType;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue test 5: the one field we add to Hudi's entry, the instant file's raw bytes, gives back the
 * original file byte for byte: through our reader, and through Hudi's own log reader when it reads
 * under the schema the block names.
 */
class TestRawContentRoundTrip {
  @RegisterExtension static final HudiFixtures FIXTURES = new HudiFixtures();

  private static final Map<String, String> SETTINGS = HudiTable.archivalSettings();

  @TempDir Path tmp;

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void everyArchivedInstantFileComesBackByteForByte(HoodieTableType type) throws Exception {
    Path base = FIXTURES.copy(type, tmp.resolve("table"));
    String uri = HudiTable.uri(base);
    Map<String, byte[]> originals = Ours.instantFiles(uri, Map.of());
    Set<Id> before;
    try (HudiTable hudi = HudiTable.open(base, type, SETTINGS)) {
      before = HudiView.active(hudi.metaClient());
    }

    ArchiveResult result = Ours.archive(uri, SETTINGS);
    assertThat(result.archived()).isNotEmpty();

    // through our reader, restored into .hoodie/ where the archiver deleted them
    ArchivedTimeline ours = Ours.read(uri, Map.of());
    assertThat(ours.instants()).hasSameSizeAs(result.archived());
    Path meta = base.resolve(".hoodie");
    Map<String, byte[]> restored = new TreeMap<>();
    for (ArchivedInstant entry : ours.instants()) {
      String name = entry.instant().fileName();
      byte[] raw = entry.rawBytes().orElseThrow();
      assertThat(Files.exists(meta.resolve(name))).as("%s is archived, not active", name).isFalse();
      Files.write(meta.resolve(name), raw);
      restored.put(name, raw);
    }
    for (Map.Entry<String, byte[]> file : restored.entrySet()) {
      assertThat(file.getValue()).as(file.getKey()).isEqualTo(originals.get(file.getKey()));
    }
    // the three encodings of instant files: JSON, Avro, and empty
    assertThat(restored.keySet())
        .anyMatch(n -> n.endsWith(".clean") || n.endsWith(".compaction.requested"))
        .anyMatch(n -> n.endsWith(".commit") || n.endsWith(".deltacommit"))
        .anyMatch(n -> restored.get(n).length == 0);

    try (HudiTable hudi = HudiTable.open(base, type, SETTINGS)) {
      assertThat(HudiView.active(hudi.metaClient()))
          .as("Hudi's timeline after restoring every archived file")
          .isEqualTo(before);

      // through Hudi's log reader, under the writer schema of each block
      Map<String, byte[]> fromHudi = new TreeMap<>();
      for (ScannedBlock block : HudiView.scan(hudi.metaClient(), null)) {
        RawContent.BlockInflater inflater = new RawContent.BlockInflater();
        for (GenericRecord record : block.records()) {
          TimelineInstant instant = instant(Id.of(record));
          byte[] bytes =
              inflater.inflate(instant, (ByteBuffer) record.get(EntryFields.DEFLATED_CONTENT));
          fromHudi.put(instant.fileName(), bytes);
        }
      }
      assertThat(fromHudi).hasSameSizeAs(restored);
      for (Map.Entry<String, byte[]> file : fromHudi.entrySet()) {
        assertThat(file.getValue()).as(file.getKey()).isEqualTo(originals.get(file.getKey()));
      }
    }
  }

  private static TimelineInstant instant(Id id) {
    return new TimelineInstant(
        id.time(), Action.fromName(id.action()).orElseThrow(), State.valueOf(id.state()));
  }
}
