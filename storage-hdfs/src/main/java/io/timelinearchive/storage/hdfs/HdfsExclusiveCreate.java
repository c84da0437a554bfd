package io.timelinearchive.storage.hdfs;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.OutcomeUnknownException;
import io.timelinearchive.storage.StorageErrors;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.util.UUID;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exclusive create as a temporary file published by a rename without overwrite, which HDFS checks
 * and performs in one NameNode operation.
 *
 * <p>Renames go through {@link FileContext}, whose rename without overwrite fails when the target
 * exists; {@code FileSystem.rename} returns false on HDFS but overwrites on local disks, so it is
 * never used.
 */
final class HdfsExclusiveCreate {
  private static final Logger LOG = LoggerFactory.getLogger(HdfsExclusiveCreate.class);

  /** Names of files being written by {@link #create}; listings leave them out. */
  static final String TEMP_PREFIX = ".timeline-archive-tmp-";

  private final FileSystem fs;
  private final FileContext fileContext;

  HdfsExclusiveCreate(FileSystem fs, FileContext fileContext) {
    this.fs = requireNonNull(fs, "fs is null");
    this.fileContext = requireNonNull(fileContext, "fileContext is null");
  }

  static boolean isTemporary(String name) {
    return name.startsWith(TEMP_PREFIX);
  }

  /**
   * Creates {@code target} (the path of {@code file}) with {@code content}, as {@link
   * io.timelinearchive.storage.MetaStorage#createExclusive} promises.
   */
  void create(Path target, StorageLocation file, byte[] content) throws IOException {
    requireNonNull(content, "content is null");
    // The content goes to a name no reader looks for; only the rename makes it visible, whole.
    // The name does not grow with the target's, so targets may use the longest name allowed.
    Path temp = new Path(target.getParent(), TEMP_PREFIX + UUID.randomUUID());
    try (FSDataOutputStream out = fs.create(temp, false)) {
      out.write(content);
      // close() alone leaves the bytes in the DataNodes' page cache.
      out.hsync();
    } catch (IOException e) {
      deleteQuietly(temp, e);
      throw HdfsErrors.translate(e, file);
    }

    try {
      fileContext.rename(temp, target, Options.Rename.NONE);
    } catch (IOException e) {
      IOException cause = HdfsErrors.unwrap(e);
      if (cause instanceof FileAlreadyExistsException) {
        deleteQuietly(temp, e);
        throw StorageErrors.alreadyExists(file, cause);
      }
      // The rename may have happened before the call failed (a lost reply). Nobody else knows the
      // temporary name, so its being gone and the target there tells that this call created it.
      boolean renamed;
      try {
        renamed = !fs.exists(temp) && fs.exists(target);
      } catch (IOException probe) {
        e.addSuppressed(probe);
        throw new OutcomeUnknownException(
            "cannot tell whether " + file + " was created: the rename failed and so did the check",
            e);
      }
      if (renamed) {
        LOG.debug("rename to {} failed but took effect", file, e);
        return;
      }
      deleteQuietly(temp, e);
      throw HdfsErrors.translate(cause, file);
    }
  }

  private void deleteQuietly(Path path, Exception failure) {
    try {
      fs.delete(path, false);
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
  }
}
