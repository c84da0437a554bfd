package io.timelinearchive.format;

import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;

/** Hand-made log blocks for tests outside this package: the codec itself is not public API. */
public final class LogBlockFixtures {
  private LogBlockFixtures() {}

  /** One Avro data block of {@code records}, as the archiver writes it. */
  public static byte[] avroDataBlock(Schema schema, List<? extends IndexedRecord> records) {
    return LogBlockCodec.encodeAvroDataBlock(schema, records);
  }
}
