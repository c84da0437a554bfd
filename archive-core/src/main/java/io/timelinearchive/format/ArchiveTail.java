package io.timelinearchive.format;

import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Whether an archive file ends exactly after a whole block, told from its last block alone: the
 * trailer points back to the block's start, where the magic and a matching size must be. A file
 * whose writer died mid-append (Hudi's on HDFS, or ours before a journal existed) fails this, and
 * appending after its torn tail would turn the tail into a corrupt block in the middle of the file.
 */
public final class ArchiveTail {
  private static final int TRAILER = 8;

  private ArchiveTail() {}

  /**
   * @param length the file's current length
   */
  public static boolean endsAtBlockBoundary(MetaStorage storage, StorageLocation file, long length)
      throws IOException {
    if (length == 0) {
      return true;
    }
    if (length < LogBlockFormat.MAGIC_AND_SIZE + LogBlockFormat.MIN_BLOCK_SIZE) {
      return false;
    }
    try (InputStream in = storage.open(file)) {
      DataInputStream data = new DataInputStream(in);
      skipFully(in, length - TRAILER);
      long trailer = data.readLong();
      long blockStart = length - TRAILER - trailer;
      // the trailer counts the magic and the size field too: blockSize + 6
      if (trailer < LogBlockFormat.MIN_BLOCK_SIZE + 6 || blockStart < 0) {
        return false;
      }
      try (InputStream again = storage.open(file)) {
        DataInputStream head = new DataInputStream(again);
        skipFully(again, blockStart);
        byte[] magic = new byte[LogBlockFormat.MAGIC.length];
        head.readFully(magic);
        long blockSize = head.readLong();
        return Arrays.equals(magic, LogBlockFormat.MAGIC) && blockSize == trailer - 6;
      }
    } catch (EOFException e) {
      return false;
    }
  }

  private static void skipFully(InputStream in, long n) throws IOException {
    long left = n;
    while (left > 0) {
      long skipped = in.skip(left);
      if (skipped <= 0) {
        if (in.read() < 0) {
          throw new EOFException();
        }
        skipped = 1;
      }
      left -= skipped;
    }
  }
}
