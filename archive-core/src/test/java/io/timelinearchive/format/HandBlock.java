package io.timelinearchive.format;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A log block assembled field by field from docs/HUDI-FORMAT.md §4 with a ByteBuffer, independent
 * of the production encoder. Fields can be set wrong on purpose.
 */
final class HandBlock {
  record Entry(int key, byte[] value) {}

  byte[] magic = "#HUDI#".getBytes(StandardCharsets.US_ASCII);
  int formatVersion = 1;
  int blockType = 3;
  List<Entry> header = new ArrayList<>();
  Integer headerCountOverride;
  int dataBlockVersion = 3;
  Integer recordCountOverride;
  List<byte[]> records = new ArrayList<>();
  List<Integer> recordLengthOverrides = new ArrayList<>();
  Long contentLengthOverride;
  List<Entry> footer = new ArrayList<>();
  Long blockSizeOverride;
  Long trailerOverride;

  static HandBlock withSchema(String schemaJson, List<byte[]> records) {
    HandBlock block = new HandBlock();
    block.header.add(new Entry(2, schemaJson.getBytes(StandardCharsets.UTF_8)));
    block.records.addAll(records);
    return block;
  }

  byte[] content() {
    int size = 8;
    for (byte[] r : records) {
      size += 4 + r.length;
    }
    ByteBuffer c = ByteBuffer.allocate(size);
    c.putInt(dataBlockVersion);
    c.putInt(recordCountOverride != null ? recordCountOverride : records.size());
    for (int i = 0; i < records.size(); i++) {
      byte[] r = records.get(i);
      int length =
          i < recordLengthOverrides.size() && recordLengthOverrides.get(i) != null
              ? recordLengthOverrides.get(i)
              : r.length;
      c.putInt(length);
      c.put(r);
    }
    return c.array();
  }

  private static byte[] metadata(List<Entry> entries, Integer countOverride) {
    int size = 4;
    for (Entry e : entries) {
      size += 8 + e.value().length;
    }
    ByteBuffer m = ByteBuffer.allocate(size);
    m.putInt(countOverride != null ? countOverride : entries.size());
    for (Entry e : entries) {
      m.putInt(e.key());
      m.putInt(e.value().length);
      m.put(e.value());
    }
    return m.array();
  }

  byte[] bytes() {
    byte[] h = metadata(header, headerCountOverride);
    byte[] c = content();
    byte[] f = metadata(footer, null);
    long blockSize = 4 + 4 + h.length + 8 + c.length + f.length + 8;
    ByteBuffer b = ByteBuffer.allocate((int) blockSize + 14);
    b.put(magic);
    b.putLong(blockSizeOverride != null ? blockSizeOverride : blockSize);
    b.putInt(formatVersion);
    b.putInt(blockType);
    b.put(h);
    b.putLong(contentLengthOverride != null ? contentLengthOverride : c.length);
    b.put(c);
    b.put(f);
    b.putLong(trailerOverride != null ? trailerOverride : blockSize + 6);
    return b.array();
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
