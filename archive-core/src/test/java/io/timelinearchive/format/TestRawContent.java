package io.timelinearchive.format;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.memory.InMemoryMetaStorageFactory;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.DataFormatException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/** The instant file's bytes ride compressed; archives that carry them as they were still read. */
class TestRawContent {
  private static final TimelineInstant COMMIT =
      new TimelineInstant("20260101000000000", Action.COMMIT, State.COMPLETED);

  @Test
  void compressesAndRestoresByteForByte() throws Exception {
    Random random = new Random(1);
    for (int size : new int[] {0, 1, 100, 70_000}) {
      byte[] content = new byte[size];
      random.nextBytes(content);
      assertThat(RawContent.inflate(RawContent.deflate(content))).isEqualTo(content);
    }
    byte[] json = "{\"partitionToWriteStats\": {}, ".repeat(500).getBytes(UTF_8);
    assertThat(RawContent.deflate(json).remaining()).isLessThan(json.length / 20);
  }

  @Test
  void damagedOrCutContentFails() {
    ByteBuffer deflated = RawContent.deflate("{\"a\": 1}".repeat(50).getBytes(UTF_8));
    byte[] cut = new byte[deflated.remaining() - 3];
    deflated.duplicate().get(cut);
    assertThatThrownBy(() -> RawContent.inflate(ByteBuffer.wrap(cut)))
        .isInstanceOf(DataFormatException.class);
    byte[] damaged = new byte[deflated.remaining()];
    deflated.duplicate().get(damaged);
    damaged[damaged.length - 2] ^= 0x55;
    assertThatThrownBy(() -> RawContent.inflate(ByteBuffer.wrap(damaged)))
        .isInstanceOf(DataFormatException.class);
  }

  @Test
  void archivesWrittenBeforeCompressionStillRestoreByteForByte() throws Exception {
    byte[] content = "{\"partitionToWriteStats\": {}}".getBytes(UTF_8);
    GenericRecord converted =
        ArchiveEntryConverter.create().convert(COMMIT, Instant.EPOCH, content).record();
    // the entry as our archiver wrote it before: the bytes as they were, under the older name
    Schema legacy = legacySchema();
    GenericRecord old = new GenericData.Record(legacy);
    for (Schema.Field f : legacy.getFields()) {
      if (!f.name().equals(EntryFields.RAW_CONTENT)) {
        old.put(f.name(), converted.get(f.name()));
      }
    }
    old.put(EntryFields.RAW_CONTENT, ByteBuffer.wrap(content));
    StorageLocation folder = StorageLocation.of("memory://raw-content/t/.hoodie/archived");
    try (MetaStorage storage = MetaStorages.open(folder, Map.of())) {
      storage.createExclusive(
          folder.resolve(ArchiveFileName.of(1)),
          LogBlockCodec.encodeAvroDataBlock(legacy, List.of(old)));
      ArchivedTimeline timeline = ArchivedTimeline.load(storage, folder, ArchiveReadOptions.all());
      assertThat(timeline.instants())
          .singleElement()
          .satisfies(a -> assertThat(a.rawBytes()).hasValue(content));
    } finally {
      InMemoryMetaStorageFactory.dropVolume("raw-content");
    }
  }

  private static Schema legacySchema() {
    Schema entry = ArchiveSchemas.ARCHIVED_META_ENTRY;
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : entry.getFields()) {
      fields.add(
          f.name().equals(EntryFields.DEFLATED_CONTENT)
              ? new Schema.Field(EntryFields.RAW_CONTENT, f.schema(), f.doc(), f.defaultVal())
              : new Schema.Field(f, f.schema()));
    }
    return Schema.createRecord(
        entry.getName(), entry.getDoc(), entry.getNamespace(), entry.isError(), fields);
  }
}
