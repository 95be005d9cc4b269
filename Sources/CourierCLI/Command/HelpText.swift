/// The long help of `courier --help`: the item syntax, examples, and the exit status table.
///
/// Lines stay under 80 columns: argument-parser wraps longer ones when it prints.
enum HelpText {
    static let usage = """
        courier [<options>] [METHOD] URL [ITEM ...]
          courier serve [--port <port>]
          courier demo
        """

    static let discussion = """
        ITEMS:
          Name:Value       header (the first of a name replaces the default)
          Name:            remove a header, such as the default User-Agent
          Name;            send a header with an empty value
          name==value      query item, added to the URL's
          name=value       JSON string field (a form field with --form)
          name:=json       raw JSON field: numbers, booleans, arrays, objects
          name=@file       string field read from a file (name:=@file: JSON;
                           name==@file: a query value; Name:@file: a header;
                           those two without the file's final line feeds)
          field@path       file upload; makes the body multipart/form-data
                           (field@path;type=image/png sets its type)
          A backslash escapes a separator: a\\:b==c is the query item a:b=c.

        NESTED JSON (data field names in a JSON body, as HTTPie 3):
          user[name]=Ada   {"user": {"name": "Ada"}}
          tags[]=a         append: tags[]=a tags[]=b sends ["a", "b"]
          kids[1]=Thelma   an index; skipped positions are null
          []:=1            a top-level array
          \\[ \\] \\\\         literal characters; [\\1] is the key "1"
          A path used as another type, or set twice to different values,
          is an error naming it.

        URL SHORTHANDS:
          :8080/path       http://127.0.0.1:8080/path
          :/path           http://127.0.0.1/path (port 80)
          example.org/x    http://example.org/x

        The method is POST with data items or a piped body, GET otherwise.
        A body piped to standard input is sent as it is; --ignore-stdin
        skips it. Piped input, --raw TEXT and data items: only one of them.

        BODY AND PATH, as HTTPie 3.2:
          --multipart      multipart/form-data even without a file field
          --boundary TEXT  its boundary (1-70 characters of RFC 2046)
          --chunked        Transfer-Encoding: chunked, no Content-Length
          -x, --compress   deflate the body (Content-Encoding: deflate) if
                           that makes it smaller; -xx deflates it always
          --path-as-is     send /a/../b as written (squashed to /b otherwise)
          --offline        print the request (--print, HB by default), and
                           send nothing
          -q, --quiet      print only errors and warnings; -qq only errors
          -S, --stream     print the body line by line as it arrives (SSE,
                           NDJSON), each line formatted on its own
          --all            with --follow, print every redirect exchange too;
                           -P, --history-print HBhb chooses their parts
          --har FILE       also record the exchange, as sent, in a HAR 1.2
                           file (browsers' developer tools open it)

        SESSIONS AND CONFIG (HTTPie's, in its 3.2 file format):
          --session NAME|PATH      send the session's headers, cookies and
                                   credentials, and keep what this exchange
                                   adds (Content-* and If-* headers are not)
          --session-read-only ...  the same, leaving the file as it is

        NAME is kept per host in $COURIER_CONFIG_DIR, else
        $XDG_CONFIG_HOME/courier, else ~/.config/courier, as
        sessions/HOST_PORT/NAME.json; there config.json's
        {"default_options": [...]} come before the command line's options.

        PIPELINE (outermost first; --explain shows each stage):
          credentials      --auth/--bearer (AuthenticationInterceptor); with
                           --auth-type digest, answers to Digest challenges
          logging          -v/-vv (LoggingInterceptor), once per exchange
          retry            --retry N (RetryInterceptor), resends what is inside
          plugins          --plugin, in the order given, each attempt
          redirects and the transport (--follow, --transport)
        --explain prints on standard error, or on standard output when
        --print '' prints nothing else. A --plugin that cannot be loaded is
        one error line and exit status 1.

        EXAMPLES:
          courier :8080/anything q==swift Accept:application/json
          courier PUT example.org/users/42 name=Ada age:=36 tags:='["x"]'
          courier --form POST :8080/anything title=Trip photo@beach.jpg
          echo '{"raw":true}' | courier :8080/anything
          courier -p HBhb --auth ada:secret :8080/basic-auth/ada/secret
          courier -A digest -a ada:secret :8080/digest-auth/auth/ada/secret
          courier --curl-import "curl http://127.0.0.1:8080/anything -d a=1"
          courier --follow --check-status :8080/redirect/2
          courier --download -o big.bin :8080/bytes/104857600
          courier --curl POST example.org/api id:=7
          courier --offline -x --raw 'Hello, world!' :8080/post
          courier --session=me -a ada:secret :8080/cookies/set?sid=1
          courier --retry 3 --check-status :8080/flaky/k/2
          courier -vv --bearer t0k :8080/anything
          courier --explain --bearer t0k :8080/anything
          courier -p '' --explain-json :8080/anything | jq .steps
          courier --plugin ./stamp.so=hello :8080/anything
          courier serve --port 8080   (a local server to try these on)
          courier demo                (a tour that needs no network)

        \(ExitStatus.table)
        """
}
