package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Encoded log blocks as bytes: gathered into writes, and the whole blocks at a file's start. */
public final class LogBlocks {
  private LogBlocks() {}

  /** A run of consecutive blocks as one array. */
  public record Chunk(byte[] bytes, int blocks) {
    public Chunk {
      requireNonNull(bytes, "bytes is null");
    }
  }

  /**
   * {@code blocks} in order, gathered into chunks of at most {@code maxBytes} (a larger block is a
   * chunk of its own): each append is forced to disk or is a request of its own, so a few large
   * ones beat one per block, and a torn append leaves a prefix of whole blocks plus one torn one.
   */
  public static List<Chunk> gather(List<byte[]> blocks, int maxBytes) {
    List<Chunk> chunks = new ArrayList<>();
    for (int i = 0; i < blocks.size(); ) {
      int from = i;
      long bytes = 0;
      while (i < blocks.size() && (i == from || bytes + blocks.get(i).length <= maxBytes)) {
        bytes += blocks.get(i).length;
        i++;
      }
      chunks.add(new Chunk(concat(blocks.subList(from, i)), i - from));
    }
    return chunks;
  }

  /** The parts, one after the other, in one array. */
  public static byte[] concat(List<byte[]> parts) {
    long length = 0;
    for (byte[] part : parts) {
      length += part.length;
    }
    byte[] all = new byte[Math.toIntExact(length)];
    int at = 0;
    for (byte[] part : parts) {
      System.arraycopy(part, 0, all, at, part.length);
      at += part.length;
    }
    return all;
  }

  /**
   * How many whole blocks a whole archive file's bytes begin with, and where they end: a torn tail
   * (a block cut off by the end of the file) holds no entry and is not counted.
   *
   * @throws CorruptArchiveException if a block is corrupt
   */
  public static WholeBlocks wholeBlocks(byte[] file, String location)
      throws CorruptArchiveException {
    LogBlockReader reader =
        new LogBlockReader(new ByteArrayInputStream(file), file.length, location);
    int blocks = 0;
    try {
      for (Optional<LogBlock> b = reader.next(); b.isPresent(); b = reader.next()) {
        blocks++;
      }
    } catch (CorruptArchiveException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException("reading bytes in memory", e);
    }
    return new WholeBlocks((int) reader.validLength(), blocks);
  }

  /** The first {@code length} bytes of a file are {@code blocks} whole blocks. */
  public record WholeBlocks(int length, int blocks) {}
}
