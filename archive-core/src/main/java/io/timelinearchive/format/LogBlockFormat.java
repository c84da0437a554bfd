package io.timelinearchive.format;

import java.nio.charset.StandardCharsets;

/** Constants of Hudi's log format version 1 as the archive uses it (docs/HUDI-FORMAT.md §4). */
final class LogBlockFormat {
  static final byte[] MAGIC = "#HUDI#".getBytes(StandardCharsets.US_ASCII);
  static final int LOG_FORMAT_VERSION = 1;
  static final int AVRO_DATA_BLOCK = 3;
  static final int HEADER_SCHEMA = 2;

  /** Header and footer keys run from INSTANT_TIME (0) to BLOCK_IDENTIFIER (6). */
  static final int MAX_HEADER_KEY = 6;

  static final int DATA_BLOCK_VERSION = 3;

  /** Bytes between the magic and the size field's end. */
  static final int MAGIC_AND_SIZE = 6 + 8;

  /** The smallest blockSize: version, type, empty header, content length, empty footer, trailer. */
  static final int MIN_BLOCK_SIZE = 4 + 4 + 4 + 8 + 4 + 8;

  private LogBlockFormat() {}
}
