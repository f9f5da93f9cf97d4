// QUIC (RFC 9000/9001, RFC 9221 datagrams) through ngtcp2 0.12 and its GnuTLS crypto backend, loaded with
// dlopen on first use (processes that never open a QUIC connection never map GnuTLS and its dependencies).
// One connection per object, over one UDP socket of its own, driven by one thread of its own. Used only by
// NANSystem (Sources/NANSystem/QUIC); nothing here exposes an ngtcp2 or GnuTLS type.
#ifndef WAWARE_QUIC_H
#define WAWARE_QUIC_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

/// Loads libngtcp2, libngtcp2_crypto_gnutls and libgnutls (once per process). Returns 0, or -1 with a
/// message naming the missing library and the Debian package that provides it in `message`.
int waware_quic_load(char *message, size_t capacity);

/// One QUIC connection (opaque).
typedef struct waware_quic waware_quic;

/// Why a connection ended (`ended`'s `kind`).
enum waware_quic_end {
    /// This side closed it (`waware_quic_close`).
    WAWARE_QUIC_END_CLOSED = 0,
    /// The peer closed it with an application error code (`code`; 0 is no error).
    WAWARE_QUIC_END_PEER_CLOSED = 1,
    /// This side's TLS handshake failed and sent TLS alert `code` (42: the peer's certificate was refused,
    /// 120: no application protocol in common).
    WAWARE_QUIC_END_LOCAL_ALERT = 2,
    /// The peer's TLS handshake failed and it sent TLS alert `code`.
    WAWARE_QUIC_END_PEER_ALERT = 3,
    /// The peer closed it with QUIC transport error `code`.
    WAWARE_QUIC_END_PEER_ERROR = 4,
    /// The connection was idle for longer than the idle timeout.
    WAWARE_QUIC_END_IDLE = 5,
    /// The handshake did not complete in time.
    WAWARE_QUIC_END_HANDSHAKE_TIMEOUT = 6,
    /// ngtcp2 failed locally with error `code` (negative ngtcp2 error; the reason is its message).
    WAWARE_QUIC_END_LOCAL_ERROR = 7,
    /// The socket failed with errno `code`.
    WAWARE_QUIC_END_SOCKET = 8,
};

/// What the connection tells its owner, on the connection's own thread with its lock held: a callback
/// must not call back into waware_quic_* (it may only record the event and wake whoever waits).
typedef struct waware_quic_callbacks {
    /// Passed to every callback.
    void *context;
    /// The peer's certificate (DER): 0 accepts it, anything else refuses it (the handshake fails with
    /// bad_certificate on both sides).
    int (*verify)(void *context, const uint8_t *der, size_t length);
    /// The handshake completed (a server) or was confirmed by the server (a client: the server accepted its
    /// certificate); the negotiated application protocol.
    void (*established)(void *context, const uint8_t *alpn, size_t length);
    /// The peer opened bidirectional stream `stream`.
    void (*stream_opened)(void *context, int64_t stream);
    /// Bytes arrived on `stream`, in order; `fin` if they end it (then `length` may be 0).
    void (*stream_data)(void *context, int64_t stream, const uint8_t *data, size_t length, int fin);
    /// `stream` is gone: `reset` if the peer reset it (with application error `code`).
    void (*stream_closed)(void *context, int64_t stream, int reset, uint64_t code);
    /// A datagram (RFC 9221) arrived.
    void (*datagram)(void *context, const uint8_t *data, size_t length);
    /// Something a writer may wait for happened: sent data was acknowledged (send buffer space), or the
    /// peer allowed more streams.
    void (*progress)(void *context);
    /// The connection ended (once; nothing is called after it).
    void (*ended)(void *context, int kind, int64_t code, const uint8_t *reason, size_t length);
} waware_quic_callbacks;

/// A connection's parameters.
typedef struct waware_quic_config {
    /// 1 for the server (accepts the first client whose Initial arrives), 0 for the client.
    int server;
    /// This side's identity: a private key and its certificate, PEM, in one buffer.
    const uint8_t *identity_pem;
    size_t identity_pem_length;
    /// The application protocols offered (client) or accepted (server), in ALPN wire form: each a length
    /// byte and that many bytes.
    const uint8_t *alpn;
    size_t alpn_length;
    /// Handshake and idle limits, in nanoseconds.
    uint64_t handshake_timeout;
    uint64_t idle_timeout;
    /// Bidirectional streams the peer may have open at once.
    uint64_t max_streams;
    /// Bytes the peer may send on a stream ahead of its reader (`waware_quic_consumed`). The connection's own
    /// window is `max_streams` of these and is given back as bytes arrive, so only stream windows wait for
    /// readers and an unread stream never stalls another.
    uint64_t stream_window;
    /// Bytes a stream may have written but not yet acknowledged (`waware_quic_stream_write` takes no more).
    uint64_t stream_send_buffer;
    /// Datagrams queued for sending at most; the largest datagram accepted from the peer.
    size_t max_queued_datagrams;
    size_t max_datagram_size;
} waware_quic_config;

/// A connection bound to `local` (a client also connects its socket to `remote`; a server passes NULL).
/// Returns NULL with a message in `message` on failure. Nothing runs until `waware_quic_start`.
waware_quic *waware_quic_new(const waware_quic_config *config, const struct sockaddr_in6 *local,
                             const struct sockaddr_in6 *remote, waware_quic_callbacks callbacks,
                             char *message, size_t capacity);

/// The UDP port the connection's socket is bound to.
uint16_t waware_quic_local_port(waware_quic *quic);

/// Starts the connection's thread (the client sends its Initial). Returns 0, -EALREADY if it was started,
/// or -errno. Call from one thread.
int waware_quic_start(waware_quic *quic);

/// Opens a bidirectional stream: 0 and its id in `stream`, -EAGAIN if the peer allows no more streams now
/// (wait for `progress`), -EPIPE if the connection ended.
int waware_quic_open_stream(waware_quic *quic, int64_t *stream);

/// Queues up to `length` bytes on `stream`, and ends the stream after them if `fin` and all were taken.
/// Returns how many bytes were taken (0 when its send buffer is full: wait for `progress`), -ENOENT for an
/// unknown or finished stream, -EPIPE if the connection ended.
int64_t waware_quic_stream_write(waware_quic *quic, int64_t stream, const uint8_t *data, size_t length, int fin);

/// The owner consumed `length` bytes of `stream`: the peer may send that many more on it.
void waware_quic_consumed(waware_quic *quic, int64_t stream, size_t length);

/// Resets `stream` in both directions with application error `code`.
void waware_quic_stream_reset(waware_quic *quic, int64_t stream, uint64_t code);

/// Queues a datagram: 0, -EAGAIN if the queue is full, -EMSGSIZE if it can never fit a packet, -ENOTSUP
/// if the peer does not take datagrams, -EPIPE if the connection ended.
int waware_quic_send_datagram(waware_quic *quic, const uint8_t *data, size_t length);

/// Bytes written to streams and not yet acknowledged by the peer (plus one per stream whose end is not yet
/// sent), 0 when everything sent arrived; -EPIPE if the connection ended. `progress` follows each change.
int64_t waware_quic_unacknowledged(waware_quic *quic);

/// Closes the connection with application error `code` (0: no error); `ended` follows.
void waware_quic_close(waware_quic *quic, uint64_t code);

/// Stops the thread (closing first if still open), waits for it and frees everything. Not from a callback.
void waware_quic_free(waware_quic *quic);

#endif
