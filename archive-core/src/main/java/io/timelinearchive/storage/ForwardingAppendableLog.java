package io.timelinearchive.storage;

import static java.util.Objects.requireNonNull;

import java.io.IOException;

/** A log that passes every call to another: decorators of appends override what they change. */
public abstract class ForwardingAppendableLog implements AppendableLog {
  protected final AppendableLog delegate;

  protected ForwardingAppendableLog(AppendableLog delegate) {
    this.delegate = requireNonNull(delegate, "delegate is null");
  }

  @Override
  public StorageLocation location() {
    return delegate.location();
  }

  @Override
  public long length() {
    return delegate.length();
  }

  @Override
  public void append(byte[] bytes) throws IOException {
    delegate.append(bytes);
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
