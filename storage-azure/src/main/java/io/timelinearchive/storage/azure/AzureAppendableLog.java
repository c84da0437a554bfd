package io.timelinearchive.storage.azure;

import static java.util.Objects.requireNonNull;

import com.azure.core.http.rest.Response;
import com.azure.storage.blob.models.AppendBlobItem;
import com.azure.storage.blob.models.AppendBlobRequestConditions;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobRange;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.BlobType;
import com.azure.storage.blob.options.AppendBlobCreateOptions;
import com.azure.storage.blob.specialized.AppendBlobClient;
import io.timelinearchive.storage.AbstractAppendableLog;
import io.timelinearchive.storage.StorageLocation;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An append blob written block by block. Every block carries the append position it expects ({@code
 * x-ms-blob-condition-appendpos}), so a block the SDK retries after a lost response is refused
 * rather than written twice, and so is a block racing another writer.
 */
final class AzureAppendableLog extends AbstractAppendableLog {
  /**
   * The block size every service version accepts (newer ones take 100 MiB). At 50,000 blocks an
   * append blob holds over 190 GiB, far beyond any archive file.
   */
  static final int MAX_BLOCK_BYTES = 4 * 1024 * 1024;

  /**
   * An append blob with fewer free blocks than this is not opened for appending: the archiver then
   * starts a new archive file before a run could hit the hard limit half-way.
   */
  static final int BLOCK_HEADROOM = 1_000;

  private final AppendBlobClient client;
  private final int blockLimit;
  private int blocks;

  private AzureAppendableLog(
      StorageLocation location, AppendBlobClient client, long length, int blocks, int blockLimit) {
    super(location, length);
    this.client = requireNonNull(client, "client is null");
    this.blocks = blocks;
    this.blockLimit = blockLimit;
  }

  /**
   * The log of an append blob, created if missing.
   *
   * @param blockLimit the most blocks the blob may hold ({@link AzureMetaStorage#MAX_APPEND_BLOCKS}
   *     but in tests)
   * @throws IOException if the blob cannot take more appends: it is a block or page blob (written
   *     by another tool), it is sealed, or it is within {@link #BLOCK_HEADROOM} blocks of the limit
   */
  static AzureAppendableLog open(StorageLocation file, AppendBlobClient client, int blockLimit)
      throws IOException {
    BlobProperties properties;
    try {
      properties = propertiesOrCreate(client);
    } catch (RuntimeException e) {
      throw AzureErrors.toIoException("open for appending", file, e);
    }
    if (properties.getBlobType() != BlobType.APPEND_BLOB) {
      throw new IOException(
          file + " is a " + properties.getBlobType() + ", not an append blob; cannot append to it");
    }
    if (Boolean.TRUE.equals(properties.isSealed())) {
      throw new IOException(file + " is a sealed append blob; cannot append to it");
    }
    int blocks =
        properties.getCommittedBlockCount() == null ? 0 : properties.getCommittedBlockCount();
    // the small limits of tests shrink the headroom with them
    int headroom = Math.max(1, Math.min(BLOCK_HEADROOM, blockLimit / 10));
    if (blocks > blockLimit - headroom) {
      throw new IOException(
          file
              + " holds "
              + blocks
              + " blocks, near the append blob limit of "
              + blockLimit
              + "; write to a new file");
    }
    return new AzureAppendableLog(file, client, properties.getBlobSize(), blocks, blockLimit);
  }

  private static BlobProperties propertiesOrCreate(AppendBlobClient client) {
    try {
      return client.getProperties();
    } catch (RuntimeException e) {
      if (!AzureErrors.isNotFound(e)) {
        throw e;
      }
    }
    try {
      client.createWithResponse(
          new AppendBlobCreateOptions()
              .setRequestConditions(new BlobRequestConditions().setIfNoneMatch("*")),
          null,
          null);
    } catch (RuntimeException e) {
      // created meanwhile by another writer or by a retried attempt of ours: either way it exists
      if (!AzureErrors.isAlreadyExists(e)) {
        throw e;
      }
    }
    return client.getProperties();
  }

  @Override
  protected void checkAppendable(byte[] bytes) throws IOException {
    int needed = (bytes.length + MAX_BLOCK_BYTES - 1) / MAX_BLOCK_BYTES;
    if (blocks + needed > blockLimit) {
      // Refuse before writing anything, so the caller can roll over to a new file cleanly.
      throw new IOException(
          location()
              + " holds "
              + blocks
              + " blocks and cannot take "
              + needed
              + " more (limit "
              + blockLimit
              + "); write to a new file");
    }
  }

  @Override
  protected void appendAt(long position, byte[] bytes) throws IOException {
    for (int offset = 0; offset < bytes.length; offset += MAX_BLOCK_BYTES) {
      int size = Math.min(MAX_BLOCK_BYTES, bytes.length - offset);
      appendBlock(position + offset, bytes, offset, size);
    }
  }

  /** Appends one block, which must land at {@code position}. */
  private void appendBlock(long position, byte[] bytes, int offset, int size) throws IOException {
    AtomicInteger attempts = new AtomicInteger();
    AppendBlobRequestConditions conditions =
        new AppendBlobRequestConditions().setAppendPosition(position);
    try {
      Response<AppendBlobItem> response =
          client.appendBlockWithResponse(
              new ByteArrayInputStream(bytes, offset, size),
              size,
              md5(bytes, offset, size),
              conditions,
              null,
              AzureRequestCounter.context(attempts));
      Integer count = response.getValue().getBlobCommittedBlockCount();
      blocks = count != null ? count : blocks + 1;
    } catch (BlobStorageException e) {
      boolean positionMoved =
          e.getStatusCode() == 412
              && BlobErrorCode.APPEND_POSITION_CONDITION_NOT_MET.equals(e.getErrorCode());
      if (positionMoved && attempts.get() > 1 && landedEarlier(position, bytes, offset, size)) {
        // An earlier attempt of this very call was committed and its answer lost: the retry was
        // refused by the position condition, which is exactly what the condition is for.
        return;
      }
      if (positionMoved) {
        throw new IOException(
            location()
                + " changed under this log: another writer appended after position "
                + position,
            e);
      }
      throw AzureErrors.toIoException("append to", location(), e);
    } catch (RuntimeException e) {
      throw AzureErrors.toIoException("append to", location(), e);
    }
  }

  /**
   * Whether the blob now ends, right at the position this block expected, with exactly this block;
   * if so, takes it as appended.
   */
  private boolean landedEarlier(long position, byte[] bytes, int offset, int size)
      throws IOException {
    try {
      BlobProperties properties = client.getProperties();
      if (properties.getBlobSize() != position + size) {
        return false;
      }
      ByteArrayOutputStream tail = new ByteArrayOutputStream(size);
      client.downloadStreamWithResponse(
          tail, new BlobRange(position, (long) size), null, null, false, null, null);
      if (!Arrays.equals(tail.toByteArray(), 0, size, bytes, offset, offset + size)) {
        return false;
      }
      Integer count = properties.getCommittedBlockCount();
      blocks = count != null ? count : blocks + 1;
      return true;
    } catch (RuntimeException e) {
      throw AzureErrors.toIoException("read back the end of", location(), e);
    }
  }

  /** Lets the service check each block's bytes, as HDFS checksums do. */
  private static byte[] md5(byte[] bytes, int offset, int size) {
    try {
      MessageDigest digest = MessageDigest.getInstance("MD5");
      digest.update(bytes, offset, size);
      return digest.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has MD5", e);
    }
  }

  @Override
  public void close() {}
}
