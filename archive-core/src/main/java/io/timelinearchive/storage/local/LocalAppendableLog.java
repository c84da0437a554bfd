package io.timelinearchive.storage.local;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.AbstractAppendableLog;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A local file appended to through a {@link FileChannel}, each append forced to disk. */
final class LocalAppendableLog extends AbstractAppendableLog {
  private final FileChannel channel;
  private final Path folder;
  private final LocalUnforcedFolders unforced;

  private LocalAppendableLog(
      StorageLocation location,
      FileChannel channel,
      long length,
      Path folder,
      LocalUnforcedFolders unforced) {
    super(location, length);
    this.channel = requireNonNull(channel, "channel is null");
    this.folder = requireNonNull(folder, "folder is null");
    this.unforced = requireNonNull(unforced, "unforced is null");
  }

  /**
   * Opens {@code path}, the path of {@code file}, for appending; a file created here is durable,
   * with its name and folders, before this returns.
   *
   * @throws java.nio.file.FileSystemException if Hadoop keeps a checksum of the file
   */
  static LocalAppendableLog open(StorageLocation file, Path path, LocalUnforcedFolders unforced)
      throws IOException {
    Path folder = path.getParent();
    LocalFolders.create(folder);
    FileChannel channel;
    boolean created;
    try {
      channel =
          FileChannel.open(
              path,
              StandardOpenOption.CREATE_NEW,
              StandardOpenOption.WRITE,
              StandardOpenOption.APPEND);
      created = true;
    } catch (FileAlreadyExistsException e) {
      LocalHadoopChecksums.refuseAppend(path);
      channel = FileChannel.open(path, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
      created = false;
    }
    try {
      if (created) {
        channel.force(true);
        LocalFolders.force(folder);
      }
      return new LocalAppendableLog(file, channel, channel.size(), folder, unforced);
    } catch (IOException | RuntimeException e) {
      try {
        channel.close();
      } catch (IOException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  @Override
  protected void appendAt(long position, byte[] bytes) throws IOException {
    // Deletes made since this log was opened become durable before the bytes that follow them.
    unforced.forceAllBut(java.util.List.of(folder));
    // The lock makes "still the length we know" and the write one step for every writer that
    // locks (other processes too; within this JVM the second locker gets an
    // OverlappingFileLockException). A writer at a stale length would append after bytes its
    // caller never saw, so it refuses instead.
    FileLock lock;
    try {
      lock = channel.lock();
    } catch (OverlappingFileLockException e) {
      throw new IOException("concurrent append to " + location() + " from this process", e);
    }
    try {
      long found = channel.size();
      if (found != position) {
        throw new IOException(
            "concurrent append to "
                + location()
                + ": this log wrote up to "
                + position
                + " bytes but the file has "
                + found);
      }
      LocalChannels.writeAndForce(channel, bytes);
    } finally {
      lock.release();
    }
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
