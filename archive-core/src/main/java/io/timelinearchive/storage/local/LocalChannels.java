package io.timelinearchive.storage.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Writes to local files that are on disk, content and length, when the call returns. */
final class LocalChannels {
  private LocalChannels() {}

  /**
   * Writes all of {@code bytes} at the channel's position and forces the file's content and
   * metadata (its length) to disk. After a failure the file may hold any prefix of the bytes.
   */
  static void writeAndForce(FileChannel channel, byte[] bytes) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
    channel.force(true);
  }
}
