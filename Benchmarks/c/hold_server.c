/*
 * The server of the in-flight ladder (issue 48: "how cost grows to 10,000 in flight"): a small
 * HTTP/1.1 server that holds every request for a fixed time before answering it.
 *
 *   hold_server PORT HOLD_MS
 *
 * Listens on 127.0.0.1:PORT (the loopback only: there is no way to name another address) and
 * answers every GET or HEAD on a keep-alive connection exactly HOLD_MS milliseconds after the
 * request arrived, with the 25 bytes nginx serves as /small.json:
 *
 *   HTTP/1.1 200 OK, Content-Type: application/json, Content-Length: 25, {"ok":true,"id":42,"n":7}
 *
 * nginx answers at once, so a client that keeps 10,000 requests in flight against it mostly keeps
 * them queued in itself. Holding each request makes the requests really be in flight, each on a
 * connection of its own, for the whole hold: what the ladder measures is what a client pays per
 * request and per connection it keeps open (memory, descriptors, CPU, latency above the hold).
 *
 * run.sh starts it pinned to the server's CPU (taskset, as nginx is) after raising ulimit -n,
 * waits for its one line on stdout ("hold_server: listening on http://127.0.0.1:PORT, holding
 * HOLD_MS ms"), runs each client of the ladder against it with BENCH_SCALE=1 at every rung, and
 * stops it with SIGTERM, on which it closes every connection and exits 0.
 *
 * How: one thread, one epoll set, non-blocking sockets, so the server costs little per request
 * and never competes with the client for the client's core. Since the hold is the same for every
 * request, answers fall due in the order requests arrived: one FIFO of (descriptor, connection
 * generation, due time) is the whole schedule, and epoll's timeout is the head's due time
 * (CLOCK_MONOTONIC, nanoseconds through epoll_pwait2). A request split across reads waits for the
 * rest of its head; pipelined requests each get their place in the FIFO, so they are answered in
 * order. A connection's generation changes when it closes, so an answer queued for a connection
 * the peer closed is dropped rather than sent to the next connection that gets the same
 * descriptor. Requests carry no body (a request with one is not supported); any method other
 * than GET or HEAD closes the connection.
 *
 * It raises its own RLIMIT_NOFILE to the hard limit, to hold 20,000 connections and more.
 *
 * Build: cc -O2 -Wall -Wextra -Werror -pthread -o hold_server hold_server.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BACKLOG 65535
#define MAX_EVENTS 1024
#define READ_CHUNK 65536
/* A request head longer than this closes its connection: the ladder's heads are ~100 bytes. */
#define MAX_HEAD 16384
#define MAX_HOLD_MS 3600000L
/* Descriptors beyond this are never expected (the kernel's nr_open default is 2^20). */
#define MAX_SLOTS (1L << 20)
#define NS_PER_S 1000000000LL
#define NS_PER_MS 1000000LL

static const char response[] = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 25\r\n\r\n"
                               "{\"ok\":true,\"id\":42,\"n\":7}";
#define RESPONSE_LENGTH (sizeof response - 1)
#define HEAD_LENGTH (RESPONSE_LENGTH - 25)

/* One accepted connection, indexed by its descriptor. */
typedef struct connection {
    uint32_t generation; /* changes at every close: answers queued before it no longer match */
    int open;
    int watching_out;    /* EPOLLOUT is armed because `out` holds bytes the socket did not take */
    char *head;          /* the start of a request head whose end has not arrived */
    size_t head_length;
    char *out;           /* answers (or their tails) waiting for the socket to take them */
    size_t out_length;
    size_t out_capacity;
} connection;

/* One held request: answer connection `fd` (if still generation `generation`) at `due_ns`. */
typedef struct held_request {
    int fd;
    uint32_t generation;
    int head_only; /* a HEAD: the answer's head without its body */
    int64_t due_ns;
} held_request;

/* A ring of held requests in arrival order, which is due order. */
typedef struct fifo {
    held_request *items;
    size_t capacity;
    size_t first;
    size_t count;
} fifo;

typedef struct server {
    int epoll_fd;
    int listen_fd;
    int signal_fd;
    int spare_fd; /* kept open to be closed when descriptors run out, so a connection can be shed */
    int64_t hold_ns;
    connection *connections;
    size_t slots;
    fifo held;
    int precise_timeout; /* epoll_pwait2 works (Linux 5.11 and later) */
    int warned_out_of_fds;
} server;

static char read_buffer[MAX_HEAD + READ_CHUNK];

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

/* --- the FIFO ------------------------------------------------------------------------------ */

static int fifo_push(fifo *q, held_request item)
{
    if (q->count == q->capacity) {
        size_t capacity = q->capacity == 0 ? 1024 : q->capacity * 2;
        held_request *items = malloc(capacity * sizeof *items);
        if (items == NULL) {
            return -1;
        }
        /* Unwrap the ring into the new array, oldest first. */
        for (size_t i = 0; i < q->count; i++) {
            items[i] = q->items[(q->first + i) % q->capacity];
        }
        free(q->items);
        q->items = items;
        q->capacity = capacity;
        q->first = 0;
    }
    q->items[(q->first + q->count) % q->capacity] = item;
    q->count++;
    return 0;
}

static held_request *fifo_head(fifo *q)
{
    return q->count == 0 ? NULL : &q->items[q->first];
}

static void fifo_pop(fifo *q)
{
    q->first = (q->first + 1) % q->capacity;
    q->count--;
}

/* --- connections --------------------------------------------------------------------------- */

static void close_connection(server *s, int fd)
{
    connection *c = &s->connections[fd];
    epoll_ctl(s->epoll_fd, EPOLL_CTL_DEL, fd, NULL);
    close(fd);
    free(c->head);
    free(c->out);
    uint32_t generation = c->generation + 1;
    memset(c, 0, sizeof *c);
    c->generation = generation;
}

/* Arms or disarms EPOLLOUT; reading stays armed throughout. */
static void watch_out(server *s, int fd, int on)
{
    connection *c = &s->connections[fd];
    if (c->watching_out == on) {
        return;
    }
    struct epoll_event event = {.events = EPOLLIN | EPOLLRDHUP | (on ? EPOLLOUT : 0), .data.fd = fd};
    epoll_ctl(s->epoll_fd, EPOLL_CTL_MOD, fd, &event);
    c->watching_out = on;
}

/* Keeps `length` bytes the socket did not take; returns -1 when out of memory. */
static int keep_out(connection *c, const char *data, size_t length)
{
    if (c->out_length + length > c->out_capacity) {
        size_t capacity = (c->out_length + length) * 2;
        char *out = realloc(c->out, capacity);
        if (out == NULL) {
            return -1;
        }
        c->out = out;
        c->out_capacity = capacity;
    }
    memcpy(c->out + c->out_length, data, length);
    c->out_length += length;
    return 0;
}

/* Sends what it can of data; returns the bytes sent, or -1 when the connection is gone (EPIPE,
 * ECONNRESET: the peer closed it, which is ordinary here). */
static ssize_t send_some(int fd, const char *data, size_t length)
{
    ssize_t sent;
    do {
        sent = send(fd, data, length, MSG_NOSIGNAL | MSG_DONTWAIT);
    } while (sent < 0 && errno == EINTR);
    if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        return 0;
    }
    return sent;
}

/* Sends one answer after any already waiting; a short write keeps the rest for EPOLLOUT. */
static void answer(server *s, int fd, int head_only)
{
    connection *c = &s->connections[fd];
    size_t length = head_only ? HEAD_LENGTH : RESPONSE_LENGTH;
    if (c->out_length > 0) {
        if (keep_out(c, response, length) != 0) {
            close_connection(s, fd);
        }
        return;
    }
    ssize_t sent = send_some(fd, response, length);
    if (sent < 0) {
        close_connection(s, fd);
    } else if ((size_t)sent < length) {
        if (keep_out(c, response + sent, length - (size_t)sent) != 0) {
            close_connection(s, fd);
            return;
        }
        watch_out(s, fd, 1);
    }
}

/* The socket takes more: sends what waits, and disarms EPOLLOUT once all of it went. */
static void flush_out(server *s, int fd)
{
    connection *c = &s->connections[fd];
    ssize_t sent = send_some(fd, c->out, c->out_length);
    if (sent < 0) {
        close_connection(s, fd);
        return;
    }
    memmove(c->out, c->out + sent, c->out_length - (size_t)sent);
    c->out_length -= (size_t)sent;
    if (c->out_length == 0) {
        watch_out(s, fd, 0);
    }
}

/* Queues every complete request head in data[0, length) for an answer at arrival + hold;
 * returns the bytes used, or -1 when the connection must close (not GET or HEAD, no memory). */
static long take_requests(server *s, int fd, const char *data, size_t length, int64_t arrival)
{
    size_t used = 0;
    for (;;) {
        const char *end = memmem(data + used, length - used, "\r\n\r\n", 4);
        if (end == NULL) {
            return (long)used;
        }
        const char *start = data + used;
        size_t head_length = (size_t)(end - start) + 4;
        int head_only = head_length >= 5 && memcmp(start, "HEAD ", 5) == 0;
        if (!head_only && !(head_length >= 4 && memcmp(start, "GET ", 4) == 0)) {
            return -1;
        }
        held_request request = {fd, s->connections[fd].generation, head_only, arrival + s->hold_ns};
        if (fifo_push(&s->held, request) != 0) {
            return -1;
        }
        used += head_length;
    }
}

/* Keeps the unfinished head of a request for the next read; -1 when too long or out of memory. */
static int keep_head(connection *c, const char *data, size_t length)
{
    if (length > MAX_HEAD) {
        return -1;
    }
    if (length > 0) {
        char *head = realloc(c->head, length);
        if (head == NULL) {
            return -1;
        }
        memcpy(head, data, length);
        c->head = head;
    }
    c->head_length = length;
    return 0;
}

/* Reads once (epoll is level-triggered: more comes back as another event), after the head
 * left over from the last read, and queues the requests that are now complete. */
static void read_requests(server *s, int fd)
{
    connection *c = &s->connections[fd];
    size_t kept = c->head_length;
    if (kept > 0) {
        memcpy(read_buffer, c->head, kept);
    }
    ssize_t received;
    do {
        received = recv(fd, read_buffer + kept, READ_CHUNK, 0);
    } while (received < 0 && errno == EINTR);
    if (received < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        return;
    }
    if (received <= 0) {
        close_connection(s, fd); /* closed by the peer (0) or reset (ECONNRESET) */
        return;
    }
    size_t length = kept + (size_t)received;
    long used = take_requests(s, fd, read_buffer, length, now_ns());
    if (used < 0 || keep_head(c, read_buffer + used, length - (size_t)used) != 0) {
        close_connection(s, fd);
    }
}

/* Descriptors ran out: accept the waiting connection on the spare descriptor and close it, so the
 * listener does not stay readable forever. */
static void shed_connection(server *s)
{
    if (!s->warned_out_of_fds) {
        fprintf(stderr, "hold_server: out of file descriptors (ulimit -n); closing new connections\n");
        s->warned_out_of_fds = 1;
    }
    close(s->spare_fd);
    int fd = accept(s->listen_fd, NULL, NULL);
    if (fd >= 0) {
        close(fd);
    }
    s->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static void open_connection(server *s, int fd)
{
    if ((size_t)fd >= s->slots) {
        close(fd);
        return;
    }
    /* Each answer is one small write that must leave at once, not wait for the last one's ACK. */
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct epoll_event event = {.events = EPOLLIN | EPOLLRDHUP, .data.fd = fd};
    if (epoll_ctl(s->epoll_fd, EPOLL_CTL_ADD, fd, &event) != 0) {
        close(fd);
        return;
    }
    s->connections[fd].open = 1;
}

/* Accepts every waiting connection, so a burst of 10,000 connects empties the backlog at once. */
static void accept_all(server *s)
{
    for (;;) {
        int fd = accept4(s->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0) {
            open_connection(s, fd);
        } else if (errno == EINTR || errno == ECONNABORTED) {
            continue;
        } else if ((errno == EMFILE || errno == ENFILE) && s->spare_fd >= 0) {
            shed_connection(s);
        } else {
            if (errno != EAGAIN && errno != EWOULDBLOCK) {
                perror("hold_server: accept4");
            }
            return;
        }
    }
}

/* Answers every held request that is due; those of connections closed since are dropped. */
static void answer_due(server *s)
{
    int64_t now = now_ns();
    held_request *request;
    while ((request = fifo_head(&s->held)) != NULL && request->due_ns <= now) {
        connection *c = &s->connections[request->fd];
        if (c->open && c->generation == request->generation) {
            answer(s, request->fd, request->head_only);
        }
        fifo_pop(&s->held);
    }
}

/* Waits for events until the oldest held request is due (for ever when none is held). */
static int wait_events(server *s, struct epoll_event *events)
{
    held_request *head = fifo_head(&s->held);
    if (head == NULL) {
        return epoll_wait(s->epoll_fd, events, MAX_EVENTS, -1);
    }
    int64_t wait = head->due_ns - now_ns();
    if (wait < 0) {
        wait = 0;
    }
    if (s->precise_timeout) {
        struct timespec timeout = {(time_t)(wait / NS_PER_S), (long)(wait % NS_PER_S)};
        int count = epoll_pwait2(s->epoll_fd, events, MAX_EVENTS, &timeout, NULL);
        if (count >= 0 || errno != ENOSYS) {
            return count;
        }
        s->precise_timeout = 0;
    }
    /* Milliseconds, rounded up: waking before the due time would only spin. */
    return epoll_wait(s->epoll_fd, events, MAX_EVENTS, (int)((wait + NS_PER_MS - 1) / NS_PER_MS));
}

/* Runs until SIGTERM or SIGINT; returns the exit status. */
static int serve(server *s)
{
    static struct epoll_event events[MAX_EVENTS];
    for (;;) {
        int count = wait_events(s, events);
        if (count < 0) {
            if (errno == EINTR) {
                continue;
            }
            perror("hold_server: epoll_wait");
            return 1;
        }
        for (int i = 0; i < count; i++) {
            int fd = events[i].data.fd;
            if (fd == s->signal_fd) {
                return 0;
            } else if (fd == s->listen_fd) {
                accept_all(s);
            } else if (s->connections[fd].open) {
                /* Errors and hang-ups show up as the read's result. */
                if (events[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
                    read_requests(s, fd);
                }
                if (s->connections[fd].open && (events[i].events & EPOLLOUT)) {
                    flush_out(s, fd);
                }
            }
        }
        answer_due(s);
    }
}

/* --- set-up -------------------------------------------------------------------------------- */

/* Raises the soft descriptor limit to the hard one; returns the limit now in force. */
static size_t raise_fd_limit(void)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) {
        return 1024;
    }
    if (limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
        getrlimit(RLIMIT_NOFILE, &limit);
    }
    return limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur > (rlim_t)MAX_SLOTS ? (size_t)MAX_SLOTS
                                                                                  : (size_t)limit.rlim_cur;
}

static int listen_on_loopback(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return -1;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                                  .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || listen(fd, BACKLOG) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* SIGTERM and SIGINT arrive as a readable descriptor in the epoll set, so the loop ends between
 * two events, never in the middle of one. */
static int signal_descriptor(void)
{
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    if (sigprocmask(SIG_BLOCK, &signals, NULL) != 0) {
        return -1;
    }
    return signalfd(-1, &signals, SFD_NONBLOCK | SFD_CLOEXEC);
}

static int add_to_epoll(int epoll_fd, int fd)
{
    struct epoll_event event = {.events = EPOLLIN, .data.fd = fd};
    return epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event);
}

/* Parses a whole decimal number in [low, high]; -1 when it is anything else. */
static long parse_number(const char *text, long low, long high)
{
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != 0 || value < low || value > high) {
        return -1;
    }
    return value;
}

static void shut_down(server *s)
{
    for (size_t fd = 0; fd < s->slots; fd++) {
        if (s->connections[fd].open) {
            close_connection(s, (int)fd);
        }
    }
    free(s->connections);
    free(s->held.items);
    close(s->listen_fd);
    close(s->signal_fd);
    close(s->epoll_fd);
    if (s->spare_fd >= 0) {
        close(s->spare_fd);
    }
}

int main(int argc, char **argv)
{
    long port = argc == 3 ? parse_number(argv[1], 1, 65535) : -1;
    long hold_ms = argc == 3 ? parse_number(argv[2], 0, MAX_HOLD_MS) : -1;
    if (port < 0 || hold_ms < 0) {
        fprintf(stderr, "usage: hold_server PORT HOLD_MS (0 to %ld)\n"
                        "listens on 127.0.0.1:PORT only; PORT is a number, never an address\n",
                MAX_HOLD_MS);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    server s = {.hold_ns = hold_ms * NS_PER_MS, .precise_timeout = 1};
    s.slots = raise_fd_limit();
    s.connections = calloc(s.slots, sizeof *s.connections);
    s.listen_fd = listen_on_loopback((int)port);
    s.signal_fd = signal_descriptor();
    s.epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    s.spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (s.connections == NULL || s.listen_fd < 0 || s.signal_fd < 0 || s.epoll_fd < 0
        || add_to_epoll(s.epoll_fd, s.listen_fd) != 0 || add_to_epoll(s.epoll_fd, s.signal_fd) != 0) {
        fprintf(stderr, "hold_server: cannot listen on 127.0.0.1:%ld: %s\n", port, strerror(errno));
        return 1;
    }
    printf("hold_server: listening on http://127.0.0.1:%ld, holding %ld ms\n", port, hold_ms);
    fflush(stdout);
    int status = serve(&s);
    shut_down(&s);
    return status;
}
