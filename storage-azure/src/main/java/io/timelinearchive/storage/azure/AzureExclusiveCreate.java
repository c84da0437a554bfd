package io.timelinearchive.storage.azure;

import com.azure.core.util.BinaryData;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.blob.specialized.BlockBlobClient;
import io.timelinearchive.storage.OutcomeUnknownException;
import io.timelinearchive.storage.StorageErrors;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code createExclusive} as one Put Blob of a block blob with {@code If-None-Match: *}, the only
 * atomic whole-content create the service has. A refusal proves the blob existed before this call
 * only when it answers the call's first attempt: after the SDK retried, the attempt whose answer
 * was lost may have written it, so the outcome is unknown and the caller reads the blob back.
 */
final class AzureExclusiveCreate {
  private AzureExclusiveCreate() {}

  static void create(BlockBlobClient blob, StorageLocation file, byte[] content)
      throws IOException {
    AtomicInteger attempts = new AtomicInteger();
    BlockBlobSimpleUploadOptions options =
        new BlockBlobSimpleUploadOptions(BinaryData.fromBytes(content.clone()))
            .setContentMd5(md5(content))
            .setRequestConditions(new BlobRequestConditions().setIfNoneMatch("*"));
    try {
      blob.uploadWithResponse(options, null, AzureRequestCounter.context(attempts));
    } catch (RuntimeException e) {
      if (AzureErrors.isAlreadyExists(e)) {
        if (attempts.get() > 1) {
          throw new OutcomeUnknownException(
              file
                  + " exists after the create was retried ("
                  + attempts.get()
                  + " attempts); an earlier attempt of this call may have written it",
              e);
        }
        throw StorageErrors.alreadyExists(file, e);
      }
      throw AzureErrors.toIoException("create", file, e);
    }
  }

  /** Lets the service refuse a body damaged on the way. */
  private static byte[] md5(byte[] content) {
    try {
      return MessageDigest.getInstance("MD5").digest(content);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has MD5", e);
    }
  }
}
