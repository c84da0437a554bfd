package io.timelinearchive.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.format.CorruptArchiveException;
import io.timelinearchive.format.LogBlock;
import io.timelinearchive.format.LogBlockReader;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * Fuzzing of the archive reader on arbitrary bytes and on mutations of a real archive file: the
 * only failure allowed is a {@link CorruptArchiveException} naming the file and an offset inside it
 * (or another {@link IOException} naming the file); never another exception, and never an
 * allocation driven by a length read from the bytes. {@code -Dreliability.fuzz.tries=N} sets the
 * tries per property (the build hands it to jqwik as {@code jqwik.tries.default}).
 */
class TestArchiveReaderFuzzing {
  private static final String AUTHORITY = "fuzz-archive";
  private static final StorageLocation TABLE = StorageLocation.of("memory://" + AUTHORITY + "/t");
  private static final StorageLocation FOLDER = TABLE.resolve(".hoodie/archived");
  private static final String NAME = ".commits_.archive.1_1-0-1";
  private static final StorageLocation FILE = FOLDER.resolve(NAME);
  // far above what reading a few kilobytes needs (buffers, Avro schemas), far below a length field
  private static final long ALLOCATION_LIMIT = 64L << 20;

  /** A real archive file of a few blocks, written by the archiver. */
  private static final byte[] SEED = seed();

  private static byte[] seed() {
    StorageLocation table = StorageLocation.of("memory://fuzz-seed/t");
    try (MetaStorage storage = MetaStorages.open(table, Map.of())) {
      SampleTable.write(storage, table, SampleTable.Spec.ofSize(120, 3));
      try (TimelineArchiver archiver =
          TimelineArchiver.open(
              table.toString(),
              Map.of(
                  "hoodie.commits.archival.batch",
                  "4",
                  "hoodie.keep.min.commits",
                  "2",
                  "hoodie.keep.max.commits",
                  "3"))) {
        assertThat(archiver.archiveIfRequired().archived()).isNotEmpty();
      }
      return storage.read(table.resolve(".hoodie/archived/" + NAME));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Property
  void arbitraryBytes(@ForAll @Size(max = 4096) byte[] bytes) throws Exception {
    readSafely(bytes);
  }

  @Property
  void mutatedArchive(@ForAll("mutations") List<Mutation> mutations) throws Exception {
    byte[] bytes = SEED;
    for (Mutation m : mutations) {
      bytes = m.apply(bytes);
    }
    readSafely(bytes);
  }

  /** One edit of the file's bytes, at a position taken modulo its length. */
  record Mutation(int kind, int position, long value, int length) {
    byte[] apply(byte[] in) {
      if (in.length == 0) {
        return kind == 3 ? ByteBuffer.allocate(8).putLong(value).array() : in;
      }
      int at = Math.floorMod(position, in.length);
      byte[] out;
      switch (kind) {
        case 0 -> { // flip one byte
          out = in.clone();
          out[at] ^= (byte) (value | 1);
        }
        case 1 -> { // a length-like field: an 8- or 4-byte value over the bytes there
          out = in.clone();
          ByteBuffer b = ByteBuffer.wrap(out);
          if (at + 8 <= out.length) {
            b.putLong(at, value);
          } else if (at + 4 <= out.length) {
            b.putInt(at, (int) value);
          }
        }
        case 2 -> // cut the file short
            out = Arrays.copyOf(in, at);
        case 3 -> { // insert bytes
          byte[] insert = new byte[length];
          new java.util.Random(value).nextBytes(insert);
          out = new byte[in.length + length];
          System.arraycopy(in, 0, out, 0, at);
          System.arraycopy(insert, 0, out, at, length);
          System.arraycopy(in, at, out, at + length, in.length - at);
        }
        case 4 -> { // delete bytes
          int end = Math.min(in.length, at + length);
          out = new byte[in.length - (end - at)];
          System.arraycopy(in, 0, out, 0, at);
          System.arraycopy(in, end, out, at, in.length - end);
        }
        default -> { // repeat a stretch (duplicate blocks, or half blocks)
          int end = Math.min(in.length, at + length * 16);
          out = new byte[in.length + (end - at)];
          System.arraycopy(in, 0, out, 0, end);
          System.arraycopy(in, at, out, end, in.length - at);
        }
      }
      return out;
    }
  }

  @Provide
  Arbitrary<List<Mutation>> mutations() {
    Arbitrary<Long> values =
        Arbitraries.oneOf(
            Arbitraries.longs(),
            Arbitraries.of(
                0L,
                -1L,
                1L,
                (long) Integer.MAX_VALUE,
                (long) Integer.MIN_VALUE,
                Integer.MAX_VALUE + 1L,
                1L << 62,
                Long.MAX_VALUE,
                Long.MIN_VALUE),
            Arbitraries.longs().between(-16, 65_536));
    Arbitrary<Mutation> one =
        Combinators.combine(
                Arbitraries.integers().between(0, 5),
                Arbitraries.integers().greaterOrEqual(0),
                values,
                Arbitraries.integers().between(1, 64))
            .as(Mutation::new);
    return one.list().ofMinSize(1).ofMaxSize(4);
  }

  private static void readSafely(byte[] bytes) throws Exception {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();
    try {
      readBlocks(bytes);
    } catch (CorruptArchiveException e) {
      assertThat(e.location()).isEqualTo(FILE.toString());
      assertThat(e.offset()).isBetween(0L, (long) bytes.length);
      assertThat(e.getMessage()).contains(FILE.toString()).contains("at byte offset");
    }
    try (MetaStorage storage = MetaStorages.open(TABLE, Map.of())) {
      storage.deleteAll(List.of(FILE));
      storage.createExclusive(FILE, bytes);
      FileEntry entry = storage.list(FOLDER).toList().get(0);
      try {
        ArchivedTimeline.readFile(storage, entry, 0);
        ArchivedTimeline.load(storage, FOLDER, ArchiveReadOptions.all()).instants();
      } catch (CorruptArchiveException e) {
        assertThat(e.location()).isEqualTo(FILE.toString());
        assertThat(e.offset()).isBetween(0L, (long) bytes.length);
      } catch (IOException e) {
        assertThat(e.getMessage()).as("an I/O error names the file").contains(NAME);
      }
    }
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    assertThat(allocated)
        .as("bytes allocated reading %d bytes", bytes.length)
        .isLessThan(ALLOCATION_LIMIT + 256L * bytes.length);
  }

  /** Every block through the reader, every record decoded with the block's own schema. */
  private static void readBlocks(byte[] bytes) throws IOException {
    LogBlockReader reader =
        new LogBlockReader(new ByteArrayInputStream(bytes), bytes.length, FILE.toString());
    for (Optional<LogBlock> b = reader.next(); b.isPresent(); b = reader.next()) {
      b.get().records(null);
    }
    assertThat(reader.validLength()).isBetween(0L, (long) bytes.length);
  }
}
