package io.timelinearchive.storage.s3;

import static io.timelinearchive.storage.s3.S3Errors.failure;
import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.StorageLocation;
import java.io.FilterInputStream;
import java.io.IOException;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * An object's content as {@code open} returns it: SDK exceptions become {@link IOException}s, and
 * closing before the end aborts the connection, since a drained close would download the rest of
 * the object.
 */
final class S3ObjectStream extends FilterInputStream {
  private final ResponseInputStream<GetObjectResponse> response;
  private final StorageLocation file;
  private boolean ended;

  S3ObjectStream(ResponseInputStream<GetObjectResponse> response, StorageLocation file) {
    super(requireNonNull(response, "response is null"));
    this.response = response;
    this.file = requireNonNull(file, "file is null");
  }

  @Override
  public int read() throws IOException {
    try {
      int b = super.read();
      ended |= b < 0;
      return b;
    } catch (SdkException e) {
      throw failure("read", file, e);
    }
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    try {
      int n = super.read(buffer, offset, length);
      ended |= n < 0;
      return n;
    } catch (SdkException e) {
      throw failure("read", file, e);
    }
  }

  @Override
  public long skip(long n) throws IOException {
    try {
      return super.skip(n);
    } catch (SdkException e) {
      throw failure("read", file, e);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      if (!ended) {
        response.abort();
      }
      super.close();
    } catch (SdkException e) {
      throw failure("close", file, e);
    }
  }
}
