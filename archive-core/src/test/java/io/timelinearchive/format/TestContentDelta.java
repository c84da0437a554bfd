package io.timelinearchive.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import java.util.zip.DataFormatException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/** A content restores exactly from its program and reference, and shares what it can. */
class TestContentDelta {

  @Property(tries = 500)
  void aContentRestoresFromItsProgramAndReference(
      @ForAll long seed,
      @ForAll @IntRange(max = 6_000) int size,
      @ForAll @IntRange(max = 8) int edits)
      throws DataFormatException {
    Random r = new Random(seed);
    byte[] reference = text(r, size);
    byte[] content = r.nextInt(10) == 0 ? text(r, r.nextInt(6_000)) : edited(r, reference, edits);

    AvroBytes program = ContentDelta.program(content, reference);

    assertThat(ContentDelta.apply(program.bytes(), program.size(), reference, content.length))
        .isEqualTo(content);
    Statistics.label("program")
        .collect(
            content.length < 200
                ? "short content"
                : program.size() < content.length / 2 ? "shared" : "mostly literal");
  }

  @Property(tries = 200)
  void aFewSmallEditsLeaveAProgramOfLittleMoreThanThem(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 5) int edits) {
    Random r = new Random(seed);
    byte[] reference = new byte[20_000];
    r.nextBytes(reference); // nothing to compress: what the program saves, it shares
    byte[] content = edited(r, reference, edits);

    AvroBytes program = ContentDelta.program(content, reference);

    // each edit is at most 40 bytes of literal, plus its neighbours up to a copy's minimum
    assertThat(program.size()).isLessThan(edits * (40 + 2 * ContentDelta.MIN_COPY + 16) + 16);
  }

  @Property(tries = 1_000)
  void aDamagedProgramFailsOrRestoresTheRightLength(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 4) int damage) {
    Random r = new Random(seed);
    byte[] reference = text(r, 2_000);
    byte[] content = edited(r, reference, 3);
    AvroBytes program = ContentDelta.program(content, reference);
    byte[] bytes = Arrays.copyOf(program.bytes(), program.size());
    for (int i = 0; i < damage; i++) {
      bytes[r.nextInt(bytes.length)] = (byte) r.nextInt(256);
    }
    int length = r.nextInt(4) == 0 ? bytes.length : r.nextInt(bytes.length + 1);
    try {
      assertThat(ContentDelta.apply(bytes, length, reference, content.length))
          .hasSize(content.length);
    } catch (DataFormatException expected) {
      Statistics.collect("refused");
      return;
    }
    Statistics.collect("restored");
  }

  /** Text of a few dozen words, as metadata files are: much repeats within it. */
  private static byte[] text(Random r, int size) {
    byte[] text = new byte[size];
    String[] words = {"fileId", "\"path\"", " : ", "20260101", "parquet", ",\n  ", "0", "{", "}"};
    int at = 0;
    while (at < size) {
      byte[] word =
          words[r.nextInt(words.length)].getBytes(java.nio.charset.StandardCharsets.UTF_8);
      int n = Math.min(word.length, size - at);
      System.arraycopy(word, 0, text, at, n);
      at += n;
      if (r.nextInt(5) == 0 && at < size) {
        text[at++] = (byte) ('a' + r.nextInt(26));
      }
    }
    return text;
  }

  /** {@code base} with edits: bytes replaced, inserted or removed, or a run moved elsewhere. */
  private static byte[] edited(Random r, byte[] base, int edits) {
    byte[] out = base.clone();
    for (int e = 0; e < edits && out.length > 0; e++) {
      int at = r.nextInt(out.length);
      int n = 1 + r.nextInt(Math.min(40, out.length - at));
      byte[] fresh = new byte[n];
      r.nextBytes(fresh);
      out =
          switch (r.nextInt(4)) {
            case 0 -> splice(out, at, n, fresh);
            case 1 -> splice(out, at, 0, fresh);
            case 2 -> splice(out, at, n, new byte[0]);
            default -> {
              byte[] run = Arrays.copyOfRange(out, at, at + n);
              byte[] without = splice(out, at, n, new byte[0]);
              yield splice(without, r.nextInt(without.length + 1), 0, run);
            }
          };
    }
    return out;
  }

  private static byte[] splice(byte[] base, int at, int remove, byte[] insert) {
    byte[] out = new byte[base.length - remove + insert.length];
    System.arraycopy(base, 0, out, 0, at);
    System.arraycopy(insert, 0, out, at, insert.length);
    System.arraycopy(base, at + remove, out, at + insert.length, base.length - at - remove);
    return out;
  }
}
