package io.timelinearchive.storage.azure;

import static io.timelinearchive.storage.azure.AzureConfig.ACCOUNT_KEY;
import static io.timelinearchive.storage.azure.AzureConfig.CONNECTION_STRING;
import static io.timelinearchive.storage.azure.AzureConfig.SAS_TOKEN;
import static java.util.Objects.requireNonNull;

import io.timelinearchive.config.Grammar;
import io.timelinearchive.config.ValueParser.InvalidValueException;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How requests are signed: at most one of the three credential settings, else the default Azure
 * credential chain. The secret never leaves this record through {@code toString} or a message.
 */
record AzureCredentials(Kind kind, String secret) {
  enum Kind {
    CONNECTION_STRING,
    ACCOUNT_KEY,
    SAS_TOKEN,
    DEFAULT_CHAIN
  }

  AzureCredentials {
    requireNonNull(kind, "kind is null");
    if ((kind == Kind.DEFAULT_CHAIN) != (secret == null)) {
      throw new IllegalArgumentException("a secret goes with every kind but DEFAULT_CHAIN");
    }
  }

  /**
   * @throws IllegalArgumentException naming the key when a credential is malformed or more than one
   *     is given
   */
  static AzureCredentials from(Map<String, String> config) {
    Optional<String> connectionString = CONNECTION_STRING.find(config);
    Optional<String> accountKey = ACCOUNT_KEY.find(config);
    Optional<String> sasToken = SAS_TOKEN.find(config);
    int given =
        (connectionString.isPresent() ? 1 : 0)
            + (accountKey.isPresent() ? 1 : 0)
            + (sasToken.isPresent() ? 1 : 0);
    if (given > 1) {
      throw new IllegalArgumentException(
          "give at most one of "
              + CONNECTION_STRING.key()
              + ", "
              + ACCOUNT_KEY.key()
              + " and "
              + SAS_TOKEN.key()
              + "; without any, the default Azure credential chain is used");
    }
    if (connectionString.isPresent()) {
      return new AzureCredentials(Kind.CONNECTION_STRING, connectionString.get());
    }
    if (accountKey.isPresent()) {
      return new AzureCredentials(Kind.ACCOUNT_KEY, accountKey.get());
    }
    if (sasToken.isPresent()) {
      return new AzureCredentials(Kind.SAS_TOKEN, sasToken.get());
    }
    return new AzureCredentials(Kind.DEFAULT_CHAIN, null);
  }

  /**
   * The blob endpoint a connection string names itself, if any.
   *
   * @throws IllegalArgumentException naming the setting, not quoting it, if that endpoint is
   *     invalid
   */
  Optional<String> connectionStringEndpoint() {
    if (kind != Kind.CONNECTION_STRING) {
      return Optional.empty();
    }
    for (String pair : secret.split(";")) {
      int eq = pair.indexOf('=');
      if (eq < 0) {
        continue;
      }
      String key = pair.substring(0, eq).strip();
      String value = pair.substring(eq + 1).strip();
      if (key.equalsIgnoreCase("BlobEndpoint") && !value.isEmpty()) {
        try {
          return Optional.of(AzureConfig.asWritten(Grammar.httpEndpoint(true).parse(value)));
        } catch (InvalidValueException e) {
          throw new IllegalArgumentException(
              CONNECTION_STRING.key() + " names a BlobEndpoint that " + e.why());
        }
      }
      if (key.equalsIgnoreCase("UseDevelopmentStorage") && value.equalsIgnoreCase("true")) {
        return Optional.of("http://127.0.0.1:10000/devstoreaccount1");
      }
    }
    return Optional.empty();
  }

  /** The parser of {@link AzureConfig#CONNECTION_STRING}. */
  static String keyValuePairs(String text) throws InvalidValueException {
    if (!text.contains("=")) {
      throw new InvalidValueException("is not Key=Value pairs separated by ';'");
    }
    return text;
  }

  /** The parser of {@link AzureConfig#ACCOUNT_KEY}. */
  static String base64(String text) throws InvalidValueException {
    try {
      Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      // not chained: the decoder's message quotes a character of the key
      throw new InvalidValueException("is not Base64");
    }
    return text;
  }

  /** The parser of {@link AzureConfig#SAS_TOKEN}: the token without its leading '?'. */
  static String sasToken(String text) throws InvalidValueException {
    String token = text.startsWith("?") ? text.substring(1) : text;
    if (!token.contains("sig=")) {
      throw new InvalidValueException("has no 'sig=' parameter, which every SAS token holds");
    }
    return token;
  }

  @Override
  public String toString() {
    return kind.name().toLowerCase(Locale.ROOT);
  }
}
