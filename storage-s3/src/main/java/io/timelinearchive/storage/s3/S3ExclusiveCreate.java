package io.timelinearchive.storage.s3;

import static io.timelinearchive.storage.s3.S3Errors.attempts;
import static io.timelinearchive.storage.s3.S3Errors.describe;
import static io.timelinearchive.storage.s3.S3Errors.failure;
import static io.timelinearchive.storage.s3.S3Errors.interrupted;
import static io.timelinearchive.storage.s3.S3Errors.isInterrupted;
import static io.timelinearchive.storage.s3.S3Errors.status;
import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.OutcomeUnknownException;
import io.timelinearchive.storage.StorageErrors;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * {@code createExclusive} as S3's conditional write: {@code If-None-Match: *} on the {@code
 * PutObject}, or above the multipart threshold on the {@code CompleteMultipartUpload}, with the
 * answers that cannot tell whether the object was created reported as an unknown outcome.
 */
final class S3ExclusiveCreate {
  // Extra tries of a conditional write answered 409 ConditionalRequestConflict on its only
  // attempt: S3 says another conditional write on the key was in flight and asks to retry.
  // https://docs.aws.amazon.com/AmazonS3/latest/userguide/conditional-writes.html
  private static final int CONFLICT_RETRIES = 3;
  private static final long CONFLICT_BACKOFF_MILLIS = 100;

  private final S3Client client;
  private final String bucket;
  private final long multipartThreshold;
  private final long partSize;

  S3ExclusiveCreate(S3Client client, String bucket, S3Config config) {
    this.client = requireNonNull(client, "client is null");
    this.bucket = requireNonNull(bucket, "bucket is null");
    requireNonNull(config, "config is null");
    this.multipartThreshold = config.multipartThreshold();
    this.partSize = config.partSize();
  }

  void create(StorageLocation file, String key, byte[] content) throws IOException {
    requireNonNull(content, "content is null");
    if (content.length > multipartThreshold) {
      createMultipart(file, key, content);
      return;
    }
    conditionally(
        file,
        () ->
            client.putObject(
                b ->
                    b.bucket(bucket).key(key).ifNoneMatch("*").contentLength((long) content.length),
                RequestBody.fromBytes(content)));
  }

  private void createMultipart(StorageLocation file, String key, byte[] content)
      throws IOException {
    String uploadId;
    try {
      uploadId =
          client
              .createMultipartUpload(
                  b -> b.bucket(bucket).key(key).checksumAlgorithm(ChecksumAlgorithm.CRC32))
              .uploadId();
    } catch (SdkException e) {
      throw failure("start a multipart upload of", file, e);
    }
    try {
      List<CompletedPart> parts = new ArrayList<>();
      for (int offset = 0, number = 1; offset < content.length; offset += partSize, number++) {
        int length = (int) Math.min(partSize, content.length - (long) offset);
        int partNumber = number;
        UploadPartResponse uploaded;
        try {
          uploaded =
              client.uploadPart(
                  b ->
                      b.bucket(bucket)
                          .key(key)
                          .uploadId(uploadId)
                          .partNumber(partNumber)
                          .contentLength((long) length)
                          .checksumAlgorithm(ChecksumAlgorithm.CRC32),
                  RequestBody.fromBytes(Arrays.copyOfRange(content, offset, offset + length)));
        } catch (SdkException e) {
          throw failure("upload part " + partNumber + " of", file, e);
        }
        parts.add(
            CompletedPart.builder()
                .partNumber(partNumber)
                .eTag(uploaded.eTag())
                .checksumCRC32(uploaded.checksumCRC32())
                .build());
      }
      // The condition sits on the completion: that is when the object becomes visible.
      conditionally(
          file,
          () ->
              client.completeMultipartUpload(
                  b ->
                      b.bucket(bucket)
                          .key(key)
                          .uploadId(uploadId)
                          .ifNoneMatch("*")
                          .multipartUpload(m -> m.parts(parts))));
    } catch (IOException | RuntimeException e) {
      // Aborting also settles an unknown completion: an aborted upload can never complete later.
      try {
        client.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
      } catch (SdkException abort) {
        e.addSuppressed(abort);
      }
      throw e;
    }
  }

  /**
   * Runs one conditional write ({@code If-None-Match: *}) and maps its answer. The SDK retries
   * failed attempts on its own, and then a {@code 412} no longer proves that someone else created
   * the object: an earlier attempt of this very call may have succeeded without us seeing the
   * answer. Only the caller can tell, by reading the object back.
   */
  private static void conditionally(StorageLocation file, Supplier<?> write) throws IOException {
    for (int conflicts = 0; ; conflicts++) {
      try {
        write.get();
        return;
      } catch (SdkException e) {
        boolean retried = attempts(e) > 1;
        int status = status(e);
        if (status == 412 && !retried) {
          throw StorageErrors.alreadyExists(file, "the object exists", e);
        }
        if (status == 409 && !retried && conflicts < CONFLICT_RETRIES) {
          // Our only attempt was refused, so nothing of ours was written: try again.
          pause(CONFLICT_BACKOFF_MILLIS << conflicts);
          continue;
        }
        if (isInterrupted(e)) {
          throw interrupted(file, e);
        }
        if (retried || status < 0 || status >= 500) {
          // An attempt may have reached S3 and created the object (a lost response, a timeout,
          // a 5xx), and nothing in this answer tells whether it did.
          throw new OutcomeUnknownException(
              "create of "
                  + file
                  + " ended after "
                  + attempts(e)
                  + " attempt(s) with "
                  + describe(e)
                  + "; read the file back to know whether it was created",
              e);
        }
        throw failure("create", file, e);
      }
    }
  }

  private static void pause(long millis) throws InterruptedIOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting to retry a conditional write");
    }
  }
}
