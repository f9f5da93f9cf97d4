// QUIC connections through ngtcp2 0.12 and GnuTLS, both loaded with dlopen: see include/waware_quic.h.
#include "waware_quic.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <gnutls/gnutls.h>
#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>
#include <ngtcp2/ngtcp2_crypto_gnutls.h>

// ---- The function table: every library function used, resolved by dlsym on first use. ----

#define WAWARE_QUIC_FUNCTIONS(X)                                                                            \
    X(gnutls, gnutls_certificate_allocate_credentials)                                                       \
    X(gnutls, gnutls_certificate_free_credentials)                                                           \
    X(gnutls, gnutls_certificate_set_x509_key_mem2)                                                          \
    X(gnutls, gnutls_certificate_set_verify_function)                                                        \
    X(gnutls, gnutls_certificate_server_set_request)                                                         \
    X(gnutls, gnutls_certificate_get_peers)                                                                  \
    X(gnutls, gnutls_init)                                                                                   \
    X(gnutls, gnutls_deinit)                                                                                 \
    X(gnutls, gnutls_priority_set_direct)                                                                    \
    X(gnutls, gnutls_credentials_set)                                                                        \
    X(gnutls, gnutls_alpn_set_protocols)                                                                     \
    X(gnutls, gnutls_alpn_get_selected_protocol)                                                             \
    X(gnutls, gnutls_session_set_ptr)                                                                        \
    X(gnutls, gnutls_session_get_ptr)                                                                        \
    X(gnutls, gnutls_strerror)                                                                               \
    X(ngtcp2, ngtcp2_conn_client_new_versioned)                                                              \
    X(ngtcp2, ngtcp2_conn_server_new_versioned)                                                              \
    X(ngtcp2, ngtcp2_conn_del)                                                                               \
    X(ngtcp2, ngtcp2_conn_read_pkt_versioned)                                                                \
    X(ngtcp2, ngtcp2_conn_writev_stream_versioned)                                                           \
    X(ngtcp2, ngtcp2_conn_writev_datagram_versioned)                                                         \
    X(ngtcp2, ngtcp2_conn_write_connection_close_versioned)                                                  \
    X(ngtcp2, ngtcp2_conn_get_expiry)                                                                        \
    X(ngtcp2, ngtcp2_conn_update_pkt_tx_time)                                                                \
    X(ngtcp2, ngtcp2_conn_get_send_quantum)                                                                  \
    X(ngtcp2, ngtcp2_conn_get_max_tx_udp_payload_size)                                                       \
    X(ngtcp2, ngtcp2_conn_handle_expiry)                                                                     \
    X(ngtcp2, ngtcp2_conn_set_tls_native_handle)                                                             \
    X(ngtcp2, ngtcp2_conn_open_bidi_stream)                                                                  \
    X(ngtcp2, ngtcp2_conn_shutdown_stream)                                                                   \
    X(ngtcp2, ngtcp2_conn_extend_max_stream_offset)                                                          \
    X(ngtcp2, ngtcp2_conn_extend_max_offset)                                                                 \
    X(ngtcp2, ngtcp2_conn_extend_max_streams_bidi)                                                           \
    X(ngtcp2, ngtcp2_conn_get_tls_alert)                                                                     \
    X(ngtcp2, ngtcp2_conn_get_connection_close_error)                                                        \
    X(ngtcp2, ngtcp2_conn_is_local_stream)                                                                   \
    X(ngtcp2, ngtcp2_conn_get_remote_transport_params)                                                       \
    X(ngtcp2, ngtcp2_conn_is_in_closing_period)                                                              \
    X(ngtcp2, ngtcp2_conn_is_in_draining_period)                                                             \
    X(ngtcp2, ngtcp2_settings_default_versioned)                                                             \
    X(ngtcp2, ngtcp2_transport_params_default_versioned)                                                     \
    X(ngtcp2, ngtcp2_accept)                                                                                 \
    X(ngtcp2, ngtcp2_cid_init)                                                                               \
    X(ngtcp2, ngtcp2_connection_close_error_default)                                                         \
    X(ngtcp2, ngtcp2_connection_close_error_set_transport_error_tls_alert)                                   \
    X(ngtcp2, ngtcp2_connection_close_error_set_transport_error_liberr)                                      \
    X(ngtcp2, ngtcp2_connection_close_error_set_application_error)                                           \
    X(ngtcp2, ngtcp2_strerror)                                                                               \
    X(crypto, ngtcp2_crypto_client_initial_cb)                                                               \
    X(crypto, ngtcp2_crypto_recv_client_initial_cb)                                                          \
    X(crypto, ngtcp2_crypto_recv_crypto_data_cb)                                                             \
    X(crypto, ngtcp2_crypto_encrypt_cb)                                                                      \
    X(crypto, ngtcp2_crypto_decrypt_cb)                                                                      \
    X(crypto, ngtcp2_crypto_hp_mask_cb)                                                                      \
    X(crypto, ngtcp2_crypto_recv_retry_cb)                                                                   \
    X(crypto, ngtcp2_crypto_update_key_cb)                                                                   \
    X(crypto, ngtcp2_crypto_delete_crypto_aead_ctx_cb)                                                       \
    X(crypto, ngtcp2_crypto_delete_crypto_cipher_ctx_cb)                                                     \
    X(crypto, ngtcp2_crypto_get_path_challenge_data_cb)                                                      \
    X(crypto, ngtcp2_crypto_version_negotiation_cb)                                                          \
    X(crypto, ngtcp2_crypto_gnutls_configure_client_session)                                                 \
    X(crypto, ngtcp2_crypto_gnutls_configure_server_session)

static struct {
#define WAWARE_QUIC_SLOT(library, name) __typeof__(name) *name;
    WAWARE_QUIC_FUNCTIONS(WAWARE_QUIC_SLOT)
#undef WAWARE_QUIC_SLOT
} table;

// The libraries, with the soname Debian 12 ships and the package that ships it.
static const struct {
    const char *soname, *package;
} libraries[] = {
    {"libgnutls.so.30", "libgnutls30"},
    {"libngtcp2.so.9", "libngtcp2-9"},
    {"libngtcp2_crypto_gnutls.so.2", "libngtcp2-crypto-gnutls2"},
};
enum { gnutls = 0, ngtcp2 = 1, crypto = 2 };

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256];

static void load_all(void) {
    void *handles[3];
    for (int i = 0; i < 3; i++) {
        handles[i] = dlopen(libraries[i].soname, RTLD_NOW | RTLD_LOCAL);
        if (handles[i] == NULL) {
            snprintf(load_error, sizeof load_error, "QUIC needs %s (apt install %s): %s", libraries[i].soname,
                     libraries[i].package, dlerror());
            return;
        }
    }
#define WAWARE_QUIC_RESOLVE(library, name)                                                                   \
    table.name = (__typeof__(name) *)dlsym(handles[library], #name);                                         \
    if (table.name == NULL) {                                                                                \
        snprintf(load_error, sizeof load_error, "QUIC needs %s from %s (apt install %s)", #name,             \
                 libraries[library].soname, libraries[library].package);                                     \
        return;                                                                                              \
    }
    WAWARE_QUIC_FUNCTIONS(WAWARE_QUIC_RESOLVE)
#undef WAWARE_QUIC_RESOLVE
}

int waware_quic_load(char *message, size_t capacity) {
    pthread_once(&load_once, load_all);
    if (load_error[0] == 0) return 0;
    if (capacity > 0) snprintf(message, capacity, "%s", load_error);
    return -1;
}

// From here on, each library function is called through the table (the headers' versioned wrapper macros
// expand to these names).
#define gnutls_certificate_allocate_credentials table.gnutls_certificate_allocate_credentials
#define gnutls_certificate_free_credentials table.gnutls_certificate_free_credentials
#define gnutls_certificate_set_x509_key_mem2 table.gnutls_certificate_set_x509_key_mem2
#define gnutls_certificate_set_verify_function table.gnutls_certificate_set_verify_function
#define gnutls_certificate_server_set_request table.gnutls_certificate_server_set_request
#define gnutls_certificate_get_peers table.gnutls_certificate_get_peers
#define gnutls_init table.gnutls_init
#define gnutls_deinit table.gnutls_deinit
#define gnutls_priority_set_direct table.gnutls_priority_set_direct
#define gnutls_credentials_set table.gnutls_credentials_set
#define gnutls_alpn_set_protocols table.gnutls_alpn_set_protocols
#define gnutls_alpn_get_selected_protocol table.gnutls_alpn_get_selected_protocol
#define gnutls_session_set_ptr table.gnutls_session_set_ptr
#define gnutls_session_get_ptr table.gnutls_session_get_ptr
#define gnutls_strerror table.gnutls_strerror
#define ngtcp2_conn_client_new_versioned table.ngtcp2_conn_client_new_versioned
#define ngtcp2_conn_server_new_versioned table.ngtcp2_conn_server_new_versioned
#define ngtcp2_conn_del table.ngtcp2_conn_del
#define ngtcp2_conn_read_pkt_versioned table.ngtcp2_conn_read_pkt_versioned
#define ngtcp2_conn_writev_stream_versioned table.ngtcp2_conn_writev_stream_versioned
#define ngtcp2_conn_writev_datagram_versioned table.ngtcp2_conn_writev_datagram_versioned
#define ngtcp2_conn_write_connection_close_versioned table.ngtcp2_conn_write_connection_close_versioned
#define ngtcp2_conn_get_expiry table.ngtcp2_conn_get_expiry
#define ngtcp2_conn_update_pkt_tx_time table.ngtcp2_conn_update_pkt_tx_time
#define ngtcp2_conn_get_send_quantum table.ngtcp2_conn_get_send_quantum
#define ngtcp2_conn_get_max_tx_udp_payload_size table.ngtcp2_conn_get_max_tx_udp_payload_size
#define ngtcp2_conn_handle_expiry table.ngtcp2_conn_handle_expiry
#define ngtcp2_conn_set_tls_native_handle table.ngtcp2_conn_set_tls_native_handle
#define ngtcp2_conn_open_bidi_stream table.ngtcp2_conn_open_bidi_stream
#define ngtcp2_conn_shutdown_stream table.ngtcp2_conn_shutdown_stream
#define ngtcp2_conn_extend_max_stream_offset table.ngtcp2_conn_extend_max_stream_offset
#define ngtcp2_conn_extend_max_offset table.ngtcp2_conn_extend_max_offset
#define ngtcp2_conn_extend_max_streams_bidi table.ngtcp2_conn_extend_max_streams_bidi
#define ngtcp2_conn_get_tls_alert table.ngtcp2_conn_get_tls_alert
#define ngtcp2_conn_get_connection_close_error table.ngtcp2_conn_get_connection_close_error
#define ngtcp2_conn_is_local_stream table.ngtcp2_conn_is_local_stream
#define ngtcp2_conn_get_remote_transport_params table.ngtcp2_conn_get_remote_transport_params
#define ngtcp2_conn_is_in_closing_period table.ngtcp2_conn_is_in_closing_period
#define ngtcp2_conn_is_in_draining_period table.ngtcp2_conn_is_in_draining_period
#define ngtcp2_settings_default_versioned table.ngtcp2_settings_default_versioned
#define ngtcp2_transport_params_default_versioned table.ngtcp2_transport_params_default_versioned
#define ngtcp2_accept table.ngtcp2_accept
#define ngtcp2_cid_init table.ngtcp2_cid_init
#define ngtcp2_connection_close_error_default table.ngtcp2_connection_close_error_default
#define ngtcp2_connection_close_error_set_transport_error_tls_alert                                          \
    table.ngtcp2_connection_close_error_set_transport_error_tls_alert
#define ngtcp2_connection_close_error_set_transport_error_liberr                                             \
    table.ngtcp2_connection_close_error_set_transport_error_liberr
#define ngtcp2_connection_close_error_set_application_error table.ngtcp2_connection_close_error_set_application_error
#define ngtcp2_strerror table.ngtcp2_strerror
#define ngtcp2_crypto_gnutls_configure_client_session table.ngtcp2_crypto_gnutls_configure_client_session
#define ngtcp2_crypto_gnutls_configure_server_session table.ngtcp2_crypto_gnutls_configure_server_session

// ---- A connection. ----

/// Bytes written to a stream, kept (never moved: ngtcp2 keeps pointers into them) until acknowledged.
typedef struct chunk {
    struct chunk *next;
    size_t length;
    uint64_t end; // the stream offset just after this chunk
    uint8_t bytes[];
} chunk;

/// A stream's send side.
typedef struct stream {
    struct stream *next;
    int64_t id;
    chunk *head, *tail; // unacknowledged chunks, oldest first
    chunk *unsent;      // the first chunk not wholly handed to ngtcp2, and how much of it was
    size_t unsent_offset;
    uint64_t written, acknowledged;
    int fin_wanted, fin_sent, blocked;
} stream;

/// A datagram waiting to be sent.
typedef struct datagram {
    struct datagram *next;
    size_t length;
    uint8_t bytes[];
} datagram;

struct waware_quic {
    waware_quic_config config;
    uint8_t *alpn_copy;
    gnutls_datum_t alpn[16];
    unsigned alpn_count;
    waware_quic_callbacks callbacks;

    pthread_mutex_t lock;
    pthread_t thread;
    int started, stop, close_requested, ended;
    uint64_t close_code;

    int socket, wake;
    struct sockaddr_in6 local, remote;
    int has_remote;
    ngtcp2_path path;

    gnutls_certificate_credentials_t credentials;
    gnutls_session_t session;
    ngtcp2_crypto_conn_ref conn_ref;
    ngtcp2_conn *conn;
    int refused_peer; // our verify callback said no
    int reported;     // `established` was called

    stream *streams;
    datagram *datagrams, *last_datagram;
    size_t queued_datagrams;

    uint8_t packet[65536];
};

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void random_bytes(uint8_t *dest, size_t length) {
    while (length > 0) {
        ssize_t n = getrandom(dest, length, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            abort(); // the kernel's random source failing leaves nothing safe to do
        }
        dest += n;
        length -= (size_t)n;
    }
}

/// Whether `id` is a bidirectional stream (RFC 9000 2.1: bit 1 clear).
static int is_bidirectional(int64_t id) { return (id & 0x2) == 0; }

static int accept_client(waware_quic *q, const ngtcp2_pkt_hd *header);

static stream *find_stream(waware_quic *q, int64_t id) {
    for (stream *s = q->streams; s != NULL; s = s->next)
        if (s->id == id) return s;
    return NULL;
}

static stream *add_stream(waware_quic *q, int64_t id) {
    stream *s = calloc(1, sizeof *s);
    if (s == NULL) return NULL;
    s->id = id;
    s->next = q->streams;
    q->streams = s;
    return s;
}

static void free_stream(stream *s) {
    for (chunk *c = s->head; c != NULL;) {
        chunk *next = c->next;
        free(c);
        c = next;
    }
    free(s);
}

static void remove_stream(waware_quic *q, int64_t id) {
    for (stream **p = &q->streams; *p != NULL; p = &(*p)->next) {
        if ((*p)->id == id) {
            stream *s = *p;
            *p = s->next;
            free_stream(s);
            return;
        }
    }
}

/// Ends the connection (once) and tells the owner.
static void end(waware_quic *q, int kind, int64_t code, const uint8_t *reason, size_t length) {
    if (q->ended) return;
    q->ended = 1;
    q->callbacks.ended(q->callbacks.context, kind, code, reason, length);
}

static void end_with_message(waware_quic *q, int kind, int64_t code, const char *message) {
    end(q, kind, code, (const uint8_t *)message, message ? strlen(message) : 0);
}

static void send_packet(waware_quic *q, const uint8_t *bytes, size_t length) {
    ssize_t n;
    do {
        n = sendto(q->socket, bytes, length, MSG_DONTWAIT, (const struct sockaddr *)&q->remote, sizeof q->remote);
    } while (n < 0 && errno == EINTR);
    // A full socket buffer drops the packet: QUIC's loss recovery sends it again.
}

/// Sends a CONNECTION_CLOSE carrying `ccerr` (best effort).
static void send_close(waware_quic *q, const ngtcp2_connection_close_error *ccerr) {
    if (q->conn == NULL || ngtcp2_conn_is_in_closing_period(q->conn) || ngtcp2_conn_is_in_draining_period(q->conn))
        return;
    ngtcp2_pkt_info pi = {0};
    ngtcp2_ssize n = ngtcp2_conn_write_connection_close(q->conn, &q->path, &pi, q->packet, sizeof q->packet,
                                                        ccerr, now_ns());
    if (n > 0) send_packet(q, q->packet, (size_t)n);
}

/// Ends the connection after ngtcp2 returned error `rv`: sends the matching CONNECTION_CLOSE and reports it.
static void fail(waware_quic *q, int rv) {
    ngtcp2_connection_close_error ccerr;
    ngtcp2_connection_close_error_default(&ccerr);
    if (rv == NGTCP2_ERR_DRAINING) {
        // The peer closed the connection.
        ngtcp2_connection_close_error received;
        ngtcp2_conn_get_connection_close_error(q->conn, &received);
        if (received.type == NGTCP2_CONNECTION_CLOSE_ERROR_CODE_TYPE_APPLICATION)
            end(q, WAWARE_QUIC_END_PEER_CLOSED, (int64_t)received.error_code, received.reason, received.reasonlen);
        else if (received.error_code >= NGTCP2_CRYPTO_ERROR && received.error_code < NGTCP2_CRYPTO_ERROR + 0x100)
            end(q, WAWARE_QUIC_END_PEER_ALERT, (int64_t)(received.error_code - NGTCP2_CRYPTO_ERROR),
                received.reason, received.reasonlen);
        else if (received.error_code == 0)
            end(q, WAWARE_QUIC_END_PEER_CLOSED, 0, received.reason, received.reasonlen);
        else
            end(q, WAWARE_QUIC_END_PEER_ERROR, (int64_t)received.error_code, received.reason, received.reasonlen);
        return;
    }
    if (rv == NGTCP2_ERR_IDLE_CLOSE) {
        end_with_message(q, WAWARE_QUIC_END_IDLE, 0, NULL);
        return;
    }
    if (rv == NGTCP2_ERR_HANDSHAKE_TIMEOUT) {
        end_with_message(q, WAWARE_QUIC_END_HANDSHAKE_TIMEOUT, 0, NULL);
        return;
    }
    if (rv == NGTCP2_ERR_CRYPTO) {
        uint8_t alert = ngtcp2_conn_get_tls_alert(q->conn);
        if (q->refused_peer) alert = GNUTLS_A_BAD_CERTIFICATE;
        ngtcp2_connection_close_error_set_transport_error_tls_alert(&ccerr, alert, NULL, 0);
        send_close(q, &ccerr);
        end_with_message(q, WAWARE_QUIC_END_LOCAL_ALERT, alert, NULL);
        return;
    }
    if (rv == NGTCP2_ERR_DROP_CONN) {
        end_with_message(q, WAWARE_QUIC_END_LOCAL_ERROR, rv, ngtcp2_strerror(rv));
        return;
    }
    ngtcp2_connection_close_error_set_transport_error_liberr(&ccerr, rv, NULL, 0);
    send_close(q, &ccerr);
    end_with_message(q, WAWARE_QUIC_END_LOCAL_ERROR, rv, ngtcp2_strerror(rv));
}

/// The next stream with something to send, or NULL.
static stream *sendable_stream(waware_quic *q) {
    for (stream *s = q->streams; s != NULL; s = s->next)
        if (!s->blocked && (s->unsent != NULL || (s->fin_wanted && !s->fin_sent))) return s;
    return NULL;
}

/// Marks `length` more bytes of `s` as handed to ngtcp2.
static void advance(stream *s, size_t length) {
    while (length > 0 && s->unsent != NULL) {
        size_t take = s->unsent->length - s->unsent_offset;
        if (take > length) take = length;
        s->unsent_offset += take;
        length -= take;
        if (s->unsent_offset == s->unsent->length) {
            s->unsent = s->unsent->next;
            s->unsent_offset = 0;
        }
    }
}

/// Writes and sends the packets ngtcp2 has to send now (queued datagrams, stream data, acknowledgements), at
/// most one send quantum (the pacer's burst). Returns 1 if it stopped at that limit with more to send.
static int flush(waware_quic *q) {
    if (q->conn == NULL || q->ended) return 0;
    for (stream *s = q->streams; s != NULL; s = s->next) s->blocked = 0;
    uint64_t ts = now_ns();
    size_t limit = ngtcp2_conn_get_send_quantum(q->conn) / ngtcp2_conn_get_max_tx_udp_payload_size(q->conn);
    if (limit < 1) limit = 1;
    if (limit > 64) limit = 64;
    size_t packets = 0;
    int more = 0;
    for (;;) {
        if (packets == limit) {
            more = 1;
            break;
        }
        ngtcp2_pkt_info pi = {0};
        ngtcp2_ssize n;
        if (q->datagrams != NULL) {
            datagram *d = q->datagrams;
            ngtcp2_vec vec = {d->bytes, d->length};
            int accepted = 0;
            n = ngtcp2_conn_writev_datagram(q->conn, &q->path, &pi, q->packet, sizeof q->packet, &accepted,
                                            NGTCP2_WRITE_DATAGRAM_FLAG_MORE, 0, &vec, 1, ts);
            if (accepted || n == NGTCP2_ERR_INVALID_ARGUMENT || n == NGTCP2_ERR_INVALID_STATE) {
                q->datagrams = d->next;
                if (q->datagrams == NULL) q->last_datagram = NULL;
                q->queued_datagrams--;
                free(d);
                if (n == NGTCP2_ERR_INVALID_ARGUMENT || n == NGTCP2_ERR_INVALID_STATE) continue;
            }
            if (n == NGTCP2_ERR_WRITE_MORE) continue;
        } else {
            stream *s = sendable_stream(q);
            ngtcp2_vec vecs[16];
            size_t count = 0;
            uint32_t flags = NGTCP2_WRITE_STREAM_FLAG_MORE;
            if (s != NULL) {
                chunk *c = s->unsent;
                size_t offset = s->unsent_offset;
                for (; c != NULL && count < 16; c = c->next, offset = 0)
                    vecs[count++] = (ngtcp2_vec){c->bytes + offset, c->length - offset};
                if (c == NULL && s->fin_wanted) flags |= NGTCP2_WRITE_STREAM_FLAG_FIN;
            }
            ngtcp2_ssize written = -1;
            n = ngtcp2_conn_writev_stream(q->conn, &q->path, &pi, q->packet, sizeof q->packet, &written, flags,
                                          s ? s->id : -1, vecs, count, ts);
            if (s != NULL && written >= 0) {
                advance(s, (size_t)written);
                if ((flags & NGTCP2_WRITE_STREAM_FLAG_FIN) && s->unsent == NULL) s->fin_sent = 1;
            }
            if (n == NGTCP2_ERR_WRITE_MORE) continue;
            if (n == NGTCP2_ERR_STREAM_DATA_BLOCKED || n == NGTCP2_ERR_STREAM_SHUT_WR ||
                n == NGTCP2_ERR_STREAM_NOT_FOUND) {
                s->blocked = 1;
                continue;
            }
        }
        if (n < 0) {
            fail(q, (int)n);
            return 0;
        }
        if (n == 0) break;
        send_packet(q, q->packet, (size_t)n);
        packets++;
    }
    ngtcp2_conn_update_pkt_tx_time(q->conn, ts);
    return more;
}

/// Reads every datagram waiting on the socket into ngtcp2.
static void receive(waware_quic *q) {
    for (int packets = 0; packets < 256 && !q->ended; packets++) {
        struct sockaddr_in6 from;
        socklen_t from_length = sizeof from;
        ssize_t n = recvfrom(q->socket, q->packet, sizeof q->packet, MSG_DONTWAIT, (struct sockaddr *)&from,
                             &from_length);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return;
            // ICMP errors (the peer's port closed) surface here on a connected socket: the peer is gone.
            if (errno == ECONNREFUSED) return;
            end_with_message(q, WAWARE_QUIC_END_SOCKET, errno, strerror(errno));
            return;
        }
        if (q->has_remote) {
            // A datagram from anyone but the peer never reaches ngtcp2.
            if (from.sin6_port != q->remote.sin6_port ||
                memcmp(&from.sin6_addr, &q->remote.sin6_addr, sizeof from.sin6_addr) != 0)
                continue;
        } else {
            // A server's first client: only a valid Initial starts the connection.
            ngtcp2_pkt_hd header;
            if (ngtcp2_accept(&header, q->packet, (size_t)n) != 0) continue;
            q->remote = from;
            q->has_remote = 1;
            q->path.remote.addr = (ngtcp2_sockaddr *)&q->remote;
            q->path.remote.addrlen = sizeof q->remote;
            if (accept_client(q, &header) != 0) return;
            // Connected to its client, the socket takes that client's packets before any other socket bound
            // to the same port (SO_REUSEADDR): the next listener on the port gets the next client.
            if (connect(q->socket, (const struct sockaddr *)&q->remote, sizeof q->remote) != 0) {
                end_with_message(q, WAWARE_QUIC_END_SOCKET, errno, strerror(errno));
                return;
            }
        }
        ngtcp2_pkt_info pi = {0};
        int rv = ngtcp2_conn_read_pkt(q->conn, &q->path, &pi, q->packet, (size_t)n, now_ns());
        if (rv != 0) {
            fail(q, rv);
            return;
        }
    }
}

// ---- ngtcp2's callbacks. ----

static void rand_callback(uint8_t *dest, size_t length, const ngtcp2_rand_ctx *context) {
    (void)context;
    random_bytes(dest, length);
}

static int new_connection_id(ngtcp2_conn *conn, ngtcp2_cid *cid, uint8_t *token, size_t length, void *user) {
    (void)conn;
    (void)user;
    uint8_t bytes[NGTCP2_MAX_CIDLEN];
    random_bytes(bytes, length);
    ngtcp2_cid_init(cid, bytes, length);
    random_bytes(token, NGTCP2_STATELESS_RESET_TOKENLEN);
    return 0;
}

static int handshake_completed(ngtcp2_conn *conn, void *user) {
    (void)conn;
    waware_quic *q = user;
    gnutls_datum_t alpn = {NULL, 0};
    if (gnutls_alpn_get_selected_protocol(q->session, &alpn) != 0 || alpn.size == 0) {
        // The server chose no protocol of ours: refuse as a TLS server would.
        ngtcp2_connection_close_error ccerr;
        ngtcp2_connection_close_error_default(&ccerr);
        ngtcp2_connection_close_error_set_transport_error_tls_alert(&ccerr, GNUTLS_A_NO_APPLICATION_PROTOCOL, NULL, 0);
        send_close(q, &ccerr);
        end_with_message(q, WAWARE_QUIC_END_LOCAL_ALERT, GNUTLS_A_NO_APPLICATION_PROTOCOL, NULL);
        return NGTCP2_ERR_CALLBACK_FAILURE;
    }
    if (q->config.server) {
        q->reported = 1;
        q->callbacks.established(q->callbacks.context, alpn.data, alpn.size);
    }
    return 0;
}

/// The client's handshake is confirmed (the server's HANDSHAKE_DONE): only now has the server accepted the
/// client's certificate, so only now is the connection reported established to a client.
static int handshake_confirmed(ngtcp2_conn *conn, void *user) {
    (void)conn;
    waware_quic *q = user;
    gnutls_datum_t alpn = {NULL, 0};
    if (q->config.server || q->reported || gnutls_alpn_get_selected_protocol(q->session, &alpn) != 0) return 0;
    q->reported = 1;
    q->callbacks.established(q->callbacks.context, alpn.data, alpn.size);
    return 0;
}

static int stream_opened(ngtcp2_conn *conn, int64_t id, void *user) {
    waware_quic *q = user;
    if (!is_bidirectional(id) || ngtcp2_conn_is_local_stream(conn, id)) return 0;
    if (add_stream(q, id) == NULL) return NGTCP2_ERR_CALLBACK_FAILURE;
    q->callbacks.stream_opened(q->callbacks.context, id);
    return 0;
}

static int stream_data(ngtcp2_conn *conn, uint32_t flags, int64_t id, uint64_t offset, const uint8_t *data,
                       size_t length, void *user, void *stream_user) {
    (void)offset;
    (void)stream_user;
    waware_quic *q = user;
    // Connection-level credit comes back on receipt: only each stream's own window waits for its reader, so
    // a stream nobody reads holds up no other stream (what it can hold is bounded by its window).
    ngtcp2_conn_extend_max_offset(conn, length);
    q->callbacks.stream_data(q->callbacks.context, id, data, length, (flags & NGTCP2_STREAM_DATA_FLAG_FIN) != 0);
    return 0;
}

static int acked(ngtcp2_conn *conn, int64_t id, uint64_t offset, uint64_t length, void *user, void *stream_user) {
    (void)conn;
    (void)stream_user;
    waware_quic *q = user;
    stream *s = find_stream(q, id);
    if (s == NULL) return 0;
    s->acknowledged = offset + length;
    while (s->head != NULL && s->head->end <= s->acknowledged) {
        chunk *c = s->head;
        s->head = c->next;
        if (s->tail == c) s->tail = NULL;
        free(c);
    }
    q->callbacks.progress(q->callbacks.context);
    return 0;
}

static int stream_closed(ngtcp2_conn *conn, uint32_t flags, int64_t id, uint64_t code, void *user,
                         void *stream_user) {
    (void)stream_user;
    waware_quic *q = user;
    remove_stream(q, id);
    if (!ngtcp2_conn_is_local_stream(conn, id) && is_bidirectional(id))
        ngtcp2_conn_extend_max_streams_bidi(conn, 1);
    int reset = (flags & NGTCP2_STREAM_CLOSE_FLAG_APP_ERROR_CODE_SET) && code != 0;
    q->callbacks.stream_closed(q->callbacks.context, id, reset, code);
    return 0;
}

static int stream_reset(ngtcp2_conn *conn, int64_t id, uint64_t final_size, uint64_t code, void *user,
                        void *stream_user) {
    (void)conn;
    (void)final_size;
    (void)stream_user;
    waware_quic *q = user;
    q->callbacks.stream_closed(q->callbacks.context, id, 1, code);
    return 0;
}

static int datagram_received(ngtcp2_conn *conn, uint32_t flags, const uint8_t *data, size_t length, void *user) {
    (void)conn;
    (void)flags;
    waware_quic *q = user;
    q->callbacks.datagram(q->callbacks.context, data, length);
    return 0;
}

static int more_streams(ngtcp2_conn *conn, uint64_t max, void *user) {
    (void)conn;
    (void)max;
    waware_quic *q = user;
    q->callbacks.progress(q->callbacks.context);
    return 0;
}

static int more_stream_data(ngtcp2_conn *conn, int64_t id, uint64_t max, void *user, void *stream_user) {
    (void)conn;
    (void)id;
    (void)max;
    (void)stream_user;
    waware_quic *q = user;
    q->callbacks.progress(q->callbacks.context);
    return 0;
}

static ngtcp2_conn *conn_of(ngtcp2_crypto_conn_ref *ref) { return ((waware_quic *)ref->user_data)->conn; }

/// GnuTLS's certificate check, replaced: the peer's certificate goes to the owner's trust decision.
static int verify_peer(gnutls_session_t session) {
    ngtcp2_crypto_conn_ref *ref = gnutls_session_get_ptr(session);
    waware_quic *q = ref->user_data;
    unsigned count = 0;
    const gnutls_datum_t *certificates = gnutls_certificate_get_peers(session, &count);
    if (certificates == NULL || count == 0 ||
        q->callbacks.verify(q->callbacks.context, certificates[0].data, certificates[0].size) != 0) {
        q->refused_peer = 1;
        return GNUTLS_E_CERTIFICATE_ERROR;
    }
    return 0;
}

static void callbacks_for(ngtcp2_callbacks *c, int server) {
    memset(c, 0, sizeof *c);
    if (server)
        c->recv_client_initial = table.ngtcp2_crypto_recv_client_initial_cb;
    else {
        c->client_initial = table.ngtcp2_crypto_client_initial_cb;
        c->recv_retry = table.ngtcp2_crypto_recv_retry_cb;
    }
    c->recv_crypto_data = table.ngtcp2_crypto_recv_crypto_data_cb;
    c->encrypt = table.ngtcp2_crypto_encrypt_cb;
    c->decrypt = table.ngtcp2_crypto_decrypt_cb;
    c->hp_mask = table.ngtcp2_crypto_hp_mask_cb;
    c->update_key = table.ngtcp2_crypto_update_key_cb;
    c->delete_crypto_aead_ctx = table.ngtcp2_crypto_delete_crypto_aead_ctx_cb;
    c->delete_crypto_cipher_ctx = table.ngtcp2_crypto_delete_crypto_cipher_ctx_cb;
    c->get_path_challenge_data = table.ngtcp2_crypto_get_path_challenge_data_cb;
    c->version_negotiation = table.ngtcp2_crypto_version_negotiation_cb;
    c->rand = rand_callback;
    c->get_new_connection_id = new_connection_id;
    c->handshake_completed = handshake_completed;
    c->handshake_confirmed = handshake_confirmed;
    c->stream_open = stream_opened;
    c->recv_stream_data = stream_data;
    c->acked_stream_data_offset = acked;
    c->stream_close = stream_closed;
    c->stream_reset = stream_reset;
    c->recv_datagram = datagram_received;
    c->extend_max_local_streams_bidi = more_streams;
    c->extend_max_stream_data = more_stream_data;
}

static void settings_for(waware_quic *q, ngtcp2_settings *settings, ngtcp2_transport_params *params) {
    ngtcp2_settings_default(settings);
    settings->initial_ts = now_ns();
    settings->handshake_timeout = q->config.handshake_timeout;
    ngtcp2_transport_params_default(params);
    params->initial_max_stream_data_bidi_local = q->config.stream_window;
    params->initial_max_stream_data_bidi_remote = q->config.stream_window;
    params->initial_max_data = q->config.max_streams * q->config.stream_window;
    params->initial_max_streams_bidi = q->config.max_streams;
    params->initial_max_streams_uni = 0;
    params->max_idle_timeout = q->config.idle_timeout;
    params->max_datagram_frame_size = q->config.max_datagram_size;
}

/// A TLS session for `q` (client or server), with the identity, ALPN and the replaced certificate check.
static int make_session(waware_quic *q, char *message, size_t capacity) {
    int server = q->config.server;
    int rv = gnutls_init(&q->session, (server ? GNUTLS_SERVER : GNUTLS_CLIENT) | GNUTLS_NO_END_OF_EARLY_DATA);
    if (rv == 0)
        rv = server ? ngtcp2_crypto_gnutls_configure_server_session(q->session)
                    : ngtcp2_crypto_gnutls_configure_client_session(q->session);
    if (rv == 0)
        rv = gnutls_priority_set_direct(q->session,
                                        "NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+AES-128-GCM:+AES-256-GCM:"
                                        "+CHACHA20-POLY1305:-GROUP-ALL:+GROUP-SECP256R1:+GROUP-X25519:"
                                        "%DISABLE_TLS13_COMPAT_MODE",
                                        NULL);
    if (rv == 0) rv = gnutls_credentials_set(q->session, GNUTLS_CRD_CERTIFICATE, q->credentials);
    if (rv == 0) rv = gnutls_alpn_set_protocols(q->session, q->alpn, q->alpn_count, server ? GNUTLS_ALPN_MANDATORY : 0);
    if (rv != 0) {
        snprintf(message, capacity, "GnuTLS session: %s", gnutls_strerror(rv));
        return -1;
    }
    if (server) gnutls_certificate_server_set_request(q->session, GNUTLS_CERT_REQUIRE);
    q->conn_ref.get_conn = conn_of;
    q->conn_ref.user_data = q;
    gnutls_session_set_ptr(q->session, &q->conn_ref);
    return 0;
}

/// The server's connection, made from its first client's Initial.
static int accept_client(waware_quic *q, const ngtcp2_pkt_hd *header) {
    ngtcp2_callbacks callbacks;
    ngtcp2_settings settings;
    ngtcp2_transport_params params;
    callbacks_for(&callbacks, 1);
    settings_for(q, &settings, &params);
    params.original_dcid = header->dcid;
    uint8_t bytes[16];
    random_bytes(bytes, sizeof bytes);
    ngtcp2_cid scid;
    ngtcp2_cid_init(&scid, bytes, sizeof bytes);
    int rv = ngtcp2_conn_server_new(&q->conn, &header->scid, &scid, &q->path, header->version, &callbacks,
                                    &settings, &params, NULL, q);
    if (rv != 0) {
        end_with_message(q, WAWARE_QUIC_END_LOCAL_ERROR, rv, ngtcp2_strerror(rv));
        return -1;
    }
    ngtcp2_conn_set_tls_native_handle(q->conn, q->session);
    return 0;
}

static int make_client(waware_quic *q, char *message, size_t capacity) {
    ngtcp2_callbacks callbacks;
    ngtcp2_settings settings;
    ngtcp2_transport_params params;
    callbacks_for(&callbacks, 0);
    settings_for(q, &settings, &params);
    uint8_t bytes[18];
    random_bytes(bytes, sizeof bytes);
    ngtcp2_cid dcid, scid;
    ngtcp2_cid_init(&dcid, bytes, 18);
    random_bytes(bytes, 16);
    ngtcp2_cid_init(&scid, bytes, 16);
    int rv = ngtcp2_conn_client_new(&q->conn, &dcid, &scid, &q->path, NGTCP2_PROTO_VER_V1, &callbacks, &settings,
                                    &params, NULL, q);
    if (rv != 0) {
        snprintf(message, capacity, "ngtcp2 client: %s", ngtcp2_strerror(rv));
        return -1;
    }
    ngtcp2_conn_set_tls_native_handle(q->conn, q->session);
    return 0;
}

waware_quic *waware_quic_new(const waware_quic_config *config, const struct sockaddr_in6 *local,
                             const struct sockaddr_in6 *remote, waware_quic_callbacks callbacks, char *message,
                             size_t capacity) {
    if (waware_quic_load(message, capacity) != 0) return NULL;
    waware_quic *q = calloc(1, sizeof *q);
    if (q == NULL) {
        snprintf(message, capacity, "out of memory");
        return NULL;
    }
    q->config = *config;
    q->callbacks = callbacks;
    q->socket = q->wake = -1;
    pthread_mutex_init(&q->lock, NULL);
    // The ALPN list: a copy, and a datum per protocol pointing into it.
    q->alpn_copy = malloc(config->alpn_length + 1);
    if (q->alpn_copy == NULL) goto failed_memory;
    memcpy(q->alpn_copy, config->alpn, config->alpn_length);
    for (size_t i = 0; i < config->alpn_length && q->alpn_count < 16;) {
        size_t length = q->alpn_copy[i];
        if (length == 0 || i + 1 + length > config->alpn_length) break;
        q->alpn[q->alpn_count++] = (gnutls_datum_t){q->alpn_copy + i + 1, (unsigned)length};
        i += 1 + length;
    }
    if (q->alpn_count == 0) {
        snprintf(message, capacity, "QUIC needs at least one application protocol (ALPN)");
        goto failed;
    }
    int rv = gnutls_certificate_allocate_credentials(&q->credentials);
    if (rv == 0) {
        gnutls_datum_t pem = {(unsigned char *)config->identity_pem, (unsigned)config->identity_pem_length};
        rv = gnutls_certificate_set_x509_key_mem2(q->credentials, &pem, &pem, GNUTLS_X509_FMT_PEM, NULL, 0);
    }
    if (rv < 0) {
        snprintf(message, capacity, "GnuTLS refused the identity: %s", gnutls_strerror(rv));
        goto failed;
    }
    gnutls_certificate_set_verify_function(q->credentials, verify_peer);
    if (make_session(q, message, capacity) != 0) goto failed;

    q->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    q->socket = socket(AF_INET6, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (q->wake < 0 || q->socket < 0) {
        snprintf(message, capacity, "socket: %s", strerror(errno));
        goto failed;
    }
    int on = 1;
    setsockopt(q->socket, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
    // A server's port is shared by its connection (connected to its client) and the next listener.
    if (remote == NULL) setsockopt(q->socket, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (bind(q->socket, (const struct sockaddr *)local, sizeof *local) != 0) {
        snprintf(message, capacity, "bind: %s", strerror(errno));
        goto failed;
    }
    socklen_t local_length = sizeof q->local;
    getsockname(q->socket, (struct sockaddr *)&q->local, &local_length);
    q->path.local.addr = (ngtcp2_sockaddr *)&q->local;
    q->path.local.addrlen = sizeof q->local;
    if (remote != NULL) {
        q->remote = *remote;
        q->has_remote = 1;
        q->path.remote.addr = (ngtcp2_sockaddr *)&q->remote;
        q->path.remote.addrlen = sizeof q->remote;
        if (connect(q->socket, (const struct sockaddr *)remote, sizeof *remote) != 0) {
            snprintf(message, capacity, "connect: %s", strerror(errno));
            goto failed;
        }
        if (make_client(q, message, capacity) != 0) goto failed;
    }
    return q;
failed_memory:
    snprintf(message, capacity, "out of memory");
failed:
    waware_quic_free(q);
    return NULL;
}

uint16_t waware_quic_local_port(waware_quic *q) { return ntohs(q->local.sin6_port); }

static void wake(waware_quic *q) {
    uint64_t one = 1;
    ssize_t n = write(q->wake, &one, sizeof one);
    (void)n;
}

static void *run(void *argument) {
    waware_quic *q = argument;
    pthread_mutex_lock(&q->lock);
    while (!q->ended) {
        if (q->stop || q->close_requested) {
            if (q->conn != NULL) {
                ngtcp2_connection_close_error ccerr;
                ngtcp2_connection_close_error_default(&ccerr);
                ngtcp2_connection_close_error_set_application_error(&ccerr, q->close_code, NULL, 0);
                send_close(q, &ccerr);
            }
            end_with_message(q, WAWARE_QUIC_END_CLOSED, (int64_t)q->close_code, NULL);
            break;
        }
        int more = flush(q);
        if (q->ended) break;
        int timeout = -1;
        if (q->conn != NULL) {
            uint64_t expiry = ngtcp2_conn_get_expiry(q->conn), now = now_ns();
            if (expiry != UINT64_MAX) timeout = expiry <= now ? 0 : (int)((expiry - now + 999999) / 1000000);
        }
        // Stopped at the pacer's burst with more to send: come back within a millisecond.
        if (more && (timeout < 0 || timeout > 1)) timeout = 1;
        pthread_mutex_unlock(&q->lock);
        struct pollfd fds[2] = {{.fd = q->socket, .events = POLLIN}, {.fd = q->wake, .events = POLLIN}};
        int ready = poll(fds, 2, timeout);
        pthread_mutex_lock(&q->lock);
        if (ready < 0 && errno != EINTR) {
            end_with_message(q, WAWARE_QUIC_END_SOCKET, errno, strerror(errno));
            break;
        }
        if (fds[1].revents & POLLIN) {
            uint64_t count;
            ssize_t n = read(q->wake, &count, sizeof count);
            (void)n;
        }
        if (fds[0].revents & (POLLIN | POLLERR)) receive(q);
        if (!q->ended && q->conn != NULL && ngtcp2_conn_get_expiry(q->conn) <= now_ns()) {
            int rv = ngtcp2_conn_handle_expiry(q->conn, now_ns());
            if (rv != 0) fail(q, rv);
        }
    }
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

int waware_quic_start(waware_quic *q) {
    if (q->started) return -EALREADY;
    int rv = pthread_create(&q->thread, NULL, run, q);
    if (rv != 0) return -rv;
    q->started = 1;
    return 0;
}

int waware_quic_open_stream(waware_quic *q, int64_t *id) {
    pthread_mutex_lock(&q->lock);
    int rv;
    if (q->ended || q->conn == NULL)
        rv = -EPIPE;
    else {
        rv = ngtcp2_conn_open_bidi_stream(q->conn, id, NULL);
        if (rv == NGTCP2_ERR_STREAM_ID_BLOCKED)
            rv = -EAGAIN;
        else if (rv != 0)
            rv = -EPROTO;
        else if (add_stream(q, *id) == NULL) {
            ngtcp2_conn_shutdown_stream(q->conn, *id, 0);
            rv = -ENOMEM;
        }
    }
    pthread_mutex_unlock(&q->lock);
    return rv;
}

int64_t waware_quic_stream_write(waware_quic *q, int64_t id, const uint8_t *data, size_t length, int fin) {
    pthread_mutex_lock(&q->lock);
    int64_t result;
    stream *s = q->ended ? NULL : find_stream(q, id);
    if (q->ended)
        result = -EPIPE;
    else if (s == NULL || s->fin_wanted)
        result = -ENOENT;
    else {
        uint64_t pending = s->written - s->acknowledged;
        size_t room = pending >= q->config.stream_send_buffer ? 0 : (size_t)(q->config.stream_send_buffer - pending);
        size_t take = length < room ? length : room;
        if (take > 0) {
            chunk *c = malloc(sizeof *c + take);
            if (c == NULL)
                take = 0;
            else {
                memcpy(c->bytes, data, take);
                c->length = take;
                c->next = NULL;
                s->written += take;
                c->end = s->written;
                if (s->tail != NULL)
                    s->tail->next = c;
                else
                    s->head = c;
                s->tail = c;
                if (s->unsent == NULL) {
                    s->unsent = c;
                    s->unsent_offset = 0;
                }
            }
        }
        if (fin && take == length) s->fin_wanted = 1;
        result = (int64_t)take;
    }
    pthread_mutex_unlock(&q->lock);
    if (result > 0 || fin) wake(q);
    return result;
}

void waware_quic_consumed(waware_quic *q, int64_t id, size_t length) {
    pthread_mutex_lock(&q->lock);
    if (!q->ended && q->conn != NULL) {
        ngtcp2_conn_extend_max_stream_offset(q->conn, id, length);
    }
    pthread_mutex_unlock(&q->lock);
    wake(q);
}

void waware_quic_stream_reset(waware_quic *q, int64_t id, uint64_t code) {
    pthread_mutex_lock(&q->lock);
    if (!q->ended && q->conn != NULL) ngtcp2_conn_shutdown_stream(q->conn, id, code);
    pthread_mutex_unlock(&q->lock);
    wake(q);
}

int waware_quic_send_datagram(waware_quic *q, const uint8_t *data, size_t length) {
    pthread_mutex_lock(&q->lock);
    int rv = 0;
    const ngtcp2_transport_params *peer = q->conn ? ngtcp2_conn_get_remote_transport_params(q->conn) : NULL;
    if (q->ended || q->conn == NULL)
        rv = -EPIPE;
    else if (peer == NULL || peer->max_datagram_frame_size == 0)
        rv = -ENOTSUP;
    else if (length + 8 > peer->max_datagram_frame_size || length > 1200)
        rv = -EMSGSIZE;
    else if (q->queued_datagrams >= q->config.max_queued_datagrams)
        rv = -EAGAIN;
    else {
        datagram *d = malloc(sizeof *d + length);
        if (d == NULL)
            rv = -ENOMEM;
        else {
            memcpy(d->bytes, data, length);
            d->length = length;
            d->next = NULL;
            if (q->last_datagram != NULL)
                q->last_datagram->next = d;
            else
                q->datagrams = d;
            q->last_datagram = d;
            q->queued_datagrams++;
        }
    }
    pthread_mutex_unlock(&q->lock);
    if (rv == 0) wake(q);
    return rv;
}

int64_t waware_quic_unacknowledged(waware_quic *q) {
    pthread_mutex_lock(&q->lock);
    int64_t total = 0;
    if (q->ended)
        total = -EPIPE;
    else
        for (stream *s = q->streams; s != NULL; s = s->next)
            if (s->head != NULL || (s->fin_wanted && !s->fin_sent)) total += (int64_t)(s->written - s->acknowledged) + 1;
    pthread_mutex_unlock(&q->lock);
    return total;
}

void waware_quic_close(waware_quic *q, uint64_t code) {
    pthread_mutex_lock(&q->lock);
    if (!q->close_requested) {
        q->close_requested = 1;
        q->close_code = code;
    }
    pthread_mutex_unlock(&q->lock);
    wake(q);
}

void waware_quic_free(waware_quic *q) {
    if (q == NULL) return;
    if (q->started) {
        pthread_mutex_lock(&q->lock);
        q->stop = 1;
        pthread_mutex_unlock(&q->lock);
        wake(q);
        pthread_join(q->thread, NULL);
    }
    if (q->conn != NULL) ngtcp2_conn_del(q->conn);
    if (q->session != NULL) gnutls_deinit(q->session);
    if (q->credentials != NULL) gnutls_certificate_free_credentials(q->credentials);
    while (q->streams != NULL) {
        stream *s = q->streams;
        q->streams = s->next;
        free_stream(s);
    }
    while (q->datagrams != NULL) {
        datagram *d = q->datagrams;
        q->datagrams = d->next;
        free(d);
    }
    if (q->socket >= 0) close(q->socket);
    if (q->wake >= 0) close(q->wake);
    free(q->alpn_copy);
    pthread_mutex_destroy(&q->lock);
    free(q);
}
