package io.timelinearchive.reliability;

import io.timelinearchive.storage.s3.FaultProxy.Fault;
import io.timelinearchive.storage.s3.FaultProxy.Request;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/**
 * Store faults on Azurite. The proxy keeps the account's path-style endpoint; Shared Key signatures
 * do not cover the host and port, so the forwarded requests stay valid.
 */
class AzureFaultIT extends AbstractFaultIT {
  private static final String ENDPOINT = "azure.endpoint";

  @Override
  Store store() {
    return Store.azure();
  }

  /**
   * The short form's cases without the three that cost Azure a minute or more each, as its SDK
   * backs off 4 s, 8 s, 16 s between tries (instant reads dropped, every 4th request failing, every
   * delete after the first 10 failing), and with a lost delete answer instead.
   */
  @Override
  boolean inShortForm(String name, boolean marked) {
    return name.equals("a delete forwarded, its answer dropped, once")
        || (marked
            && !name.startsWith("instant reads dropped")
            && !name.startsWith("every 4th")
            && !name.startsWith("500 on every delete"));
  }

  @Override
  URI upstream(Map<String, String> config) {
    return URI.create(config.get(ENDPOINT));
  }

  @Override
  Map<String, String> viaProxy(Map<String, String> config, URI proxy) {
    Map<String, String> via = new HashMap<>(config);
    via.put(ENDPOINT, proxy.resolve(URI.create(config.get(ENDPOINT)).getPath()).toString());
    return via;
  }

  @Override
  Fault error(int status) {
    return Fault.respond(
        status,
        switch (status) {
          case 503 -> "ServerBusy";
          case 429 -> "TooManyRequests";
          default -> "InternalError";
        });
  }

  // the SDK escapes the slashes of blob names
  @Override
  boolean instantRead(Request r) {
    return r.method().equals("GET") && namesAnInstantFile(r);
  }

  @Override
  boolean list(Request r) {
    return r.method().equals("GET") && r.query().contains("comp=list");
  }

  // creating the blob (block or append blob) and each appended block
  @Override
  boolean archiveWrite(Request r) {
    return r.method().equals("PUT") && path(r).contains("/.commits_.archive.");
  }

  @Override
  boolean lockWrite(Request r) {
    return r.method().equals("PUT") && path(r).contains("/.timeline_archive.lock.");
  }

  // single deletes, or a blob batch of them
  @Override
  boolean delete(Request r) {
    return r.method().equals("DELETE")
        || (r.method().equals("POST") && r.query().contains("comp=batch"));
  }
}
