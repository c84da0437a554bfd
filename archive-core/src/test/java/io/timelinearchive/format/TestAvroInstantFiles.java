package io.timelinearchive.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class TestAvroInstantFiles {
  private static final TimelineInstant CLEAN =
      new TimelineInstant("20261129120000000", Action.CLEAN, State.COMPLETED);

  @Test
  void filesWithEqualSchemasAreReadWithOneSchemaInstance() throws Exception {
    // Each file carries its own copy of the schema; a reader thread that kept a resolver per copy
    // would hold every file's schema for the whole run.
    byte[] first = AvroInstantFiles.serialize(SampleRecords.cleanMetadata("20261129110000000"));
    byte[] second = AvroInstantFiles.serialize(SampleRecords.cleanMetadata("20261129113000000"));

    GenericRecord a = AvroInstantFiles.read(CLEAN, ArchiveSchemas.CLEAN_METADATA, first);
    GenericRecord b = AvroInstantFiles.read(CLEAN, ArchiveSchemas.CLEAN_METADATA, second);

    assertThat(a.getSchema()).isSameAs(b.getSchema());
    assertThat(a.get("startCleanTime").toString()).isEqualTo("20261129110000000");
    assertThat(b.get("startCleanTime").toString()).isEqualTo("20261129113000000");
  }
}
