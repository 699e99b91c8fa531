"""A model of AWS as the simulated cloud should see it: latency, capacity and cost.

Pure Python, no AWS: every component takes the time as a number (seconds on the caller's clock), randomness as a
``random.Random``, and answers what AWS would do; the simulated cloud (``simulation/cloud.py``) schedules what the
answers say on its virtual clock. The parts:

``requests``
    The vocabulary: :class:`~tourney.simulation.aws.requests.Service` (the report's keys: ``dynamodb``, ``lambda``,
    ``websocket``, ``http``, ``sqs``, ``step_functions``) and :class:`~tourney.simulation.aws.requests.Request`
    (``dynamodb:GetItem``, ``sqs:SendMessage``, ``websocket:PostToConnection``...).

``latency``
    :class:`~tourney.simulation.aws.latency.Latencies`: one figure per request kind and platform step, overridable
    (``with_overrides``), each default with its source (``source_of(name)``). The defaults and where they come from:

    ========================  =========  ============================================================================
    figure                    default    source
    ========================  =========  ============================================================================
    GetItem                   5 ms       AWS: DynamoDB's "single-digit millisecond performance" (service side) plus
                                         the HTTPS round trip from Lambda in the region
    PutItem / UpdateItem /    8 ms       the same; a write is acknowledged once stored in two of three zones
    DeleteItem
    Query                     10 ms      the same, one page of up to 1 MB
    Scan                      20 ms      estimate, one page
    BatchGetItem              10 ms      estimate (up to 100 reads served in parallel)
    BatchWriteItem            15 ms      estimate (up to 25 writes served in parallel)
    TransactGetItems          12 ms      estimate
    TransactWriteItems        20 ms      estimate: two phases through the transaction coordinator, about 2-3 times
                                         a single write in published measurements; AWS publishes no figure
    SQS SendMessage           16 ms      Amazon's measurement of a 1 KB send in us-east-1 ("Cloud Performance
                                         Benchmark Series: Amazon SQS", revised with Amazon's results, 2012)
    SendMessageBatch          20 ms      estimate
    @connections post         25 ms      estimate: a signed HTTPS POST to the management endpoint; reports put it at
                                         20-50 ms, AWS publishes no figure
    StartExecution            30 ms      estimate
    Lambda invoke overhead    5 ms       estimate (event to a warm handler, not billed)
    Lambda cold start         650 ms     ~150 ms platform init of a Python zip function (published p50
                                         measurements) + this repository's handler import as shipped, 385-628 ms
                                         (``docs/performance.md``, "On the bundle as it ships")
    SQS to Lambda             50 ms      estimate (the event source mapping's long poll; cloud.py's DELIVERY_SECONDS)
    Step Functions state      50 ms      estimate (cloud.py's TASK_SECONDS)
    EventBridge Scheduler     60 s       AWS: Scheduler invokes targets "with 60 second precision" (a schedule for
                                         1:00 fires between 1:00:00 and 1:00:59; Scheduler User Guide)
    ========================  =========  ============================================================================

    A function's duration is its calls as it makes them
    (:class:`~tourney.simulation.aws.latency.Stopwatch`): calls in sequence add up; a ``parallel()`` group takes
    its longest branch (or, with ``workers``, what that many threads take to work through the calls).

``capacity``
    What AWS lets through. :class:`~tourney.simulation.aws.capacity.PartitionMeters`: per partition key, at most
    1,000 write units and 3,000 read units in any one second (AWS: a partition's ceiling; adaptive capacity
    isolates a hot item but does not lift it); a request over it is throttled and counts nothing, and
    :func:`~tourney.simulation.aws.capacity.with_retries` retries it as the SDK does: botocore's standard retry
    mode (``botocore/retries/standard.py``, the default mode of the installed botocore), 4 attempts in all for
    DynamoDB (3 for other services), waiting ``random() * min(base * 2 ** (attempt - 1), 20 s)`` between them,
    ``base`` 1 s after a throttling error (25 ms after another retryable DynamoDB error).
    :class:`~tourney.simulation.aws.capacity.FifoQueue`: a FIFO message group delivers one batch of at most 10 at
    a time, never two in flight, and what a batch did not finish goes back to the head in order.
    :class:`~tourney.simulation.aws.capacity.Concurrency`: a function never runs more invocations than its reserved
    concurrency; past it an invocation is throttled, and ``next_free()`` says when to try again; each start is cold
    when no idle execution environment is left. A standard queue's messages that wait for a slot are handed over
    up to its batch size (10) to an invocation when one frees (``Cloud._deliver_batch``), as the event source's
    poller does: batches fill under load, a quiet queue delivers one message at a time.
    :class:`~tourney.simulation.aws.capacity.TokenBucket`: a stage's
    throttle (rate, burst); :class:`~tourney.simulation.aws.capacity.PerSecondLimit`: 500 new WebSocket connections
    a second per account and region (API Gateway quotas). :class:`~tourney.simulation.aws.capacity.ItemLocks`: a
    transaction holds its items while it runs; another transaction touching one is cancelled
    (``TransactionCanceledException``, ``TransactionConflict``), a single-item write of one fails
    (``TransactionConflictException``) (AWS Knowledge Center, "TransactWriteItems ... conflicts").

``items``
    A DynamoDB item's size by AWS's rules ("DynamoDB item sizes and formats": names plus values; strings in UTF-8,
    numbers 1 byte per two significant digits plus 1, binary raw, boolean and null 1, lists and maps 3 plus 1 per
    element; sets their elements), in plain Python or the wire form; the 400 KB limit; request units (1 write unit
    per KB, 1 read unit per 4 KB strongly consistent, half eventually consistent, transactions twice; an update by
    the larger of before and after; a Query rounds its items' sum once).

``pricing``
    :class:`~tourney.simulation.aws.pricing.Prices`, us-east-1 on demand: DynamoDB $0.625 per million write and
    $0.125 per million read request units (since 1 November 2024; $1.25 and $0.25 are the older
    prices, kept as ``DYNAMODB_BEFORE_NOV_2024``); Lambda $0.20 per million requests and $0.0000166667 per
    GB-second x86 ($0.0000133334 arm64, which the functions use); API Gateway HTTP $1.00 per million (512 KB
    units); WebSocket $1.00 per million messages (32 KB units) and $0.25 per million connection minutes; SQS $0.40
    per million standard and $0.50 FIFO requests (64 KB units); Step Functions $25 per million state transitions.
    :class:`~tourney.simulation.aws.pricing.CostMeter` counts every request by service and prices it; its report
    gives each service's requests, units and cost, and the cost and requests per 1,000 hands.

``template``
    :class:`~tourney.simulation.aws.template.TemplateLimits`: each function's reserved concurrency, memory,
    architecture, queue batch size and maximum concurrency, and each API stage's throttle, read from the
    synthesized template (``cdk.out/``, through ``infra/local/template.py``).

``records``
    A service record as the DynamoDB adapter stores it: table, partition key, sort key, and the size of the item
    ``adapters/dynamo/mapping.py`` would write (PynamoDB serializes offline).

``model``
    :class:`~tourney.simulation.aws.model.AwsModel`, everything above as one object the simulated cloud calls:
    ``invocation(function, at)`` admits an invocation at its reservation (or throttles it; ``next_free`` says
    when to try again), the :class:`~tourney.simulation.aws.model.Invocation` takes its calls in order (``get``,
    ``batch_get``, ``query``, ``write``, ``transact``, ``send``, ``post``, ``start_execution``), each at the moment
    its stopwatch reached, metered, retried as the SDK and the adapter retry, priced, and refused with
    ``Throttled``, ``TransactionConflict`` or ``ItemTooLarge``; ``finish(run)`` frees the slot at its end and bills
    it; ``connect`` and ``through_stage`` apply the connection quota and the stages' throttles.

``store``
    :class:`~tourney.simulation.aws.store.MeteredStore`, the ``Store`` port over another store, charging the
    running invocation what ``adapters/dynamo/store.py`` requests for each call: a GetItem per record read, a Query
    per bucket of a listing, a BatchGetItem of the counter shards, a commit as one TransactWriteItems (a single
    save alone as a PutItem), the ledger's items on the adapter's partitions. A commit that loses a race or stays
    throttled through the adapter's retries is ``StaleVersion``, as the adapter raises it (the service reads again
    and retries). A registration through it reads 55 units, as counted on moto.

Hooking it into the simulated cloud (``cloud.py``; off unless the benchmark passes a model):

1. ``Cloud(..., aws: AwsModel | None = None)``; keep ``self._run: Invocation | None``. Give ``bootstrap`` the store
   ``MeteredStore(self._store_as, lambda: self._run)`` (it reads through ``StoreAs``'s swapped views, so the
   permissions still apply). Model time is ``self._micros / 1e6``.
2. ``_invoke`` / ``_invoke_api``: ``run = aws.invocation(function, t)``; None is a throttle (below). Set
   ``self._run = run`` around ``call()``; catch ``model.Failure`` (a read throttled through the SDK's retries, a
   single write meeting a transaction) and ``items.ItemTooLarge`` as a failed invocation (False, None), as AWS
   fails it (a commit's lost race already arrives as ``StaleVersion``, which the services retry); in
   ``finally`` ``end = aws.finish(run)`` and keep ``end`` for the trigger. ``invoke_api`` first asks
   ``aws.through_stage("HTTP", t)`` (False: a 429, no function runs).
3. ``after()``: while an invocation runs, count delays from the moment of the call, not the invocation's start:
   ``seconds += self._run.watch.elapsed``, and do not use the fixed-delay lanes then (``fixed=False``): with
   offsets, one lane's due times are no longer in send order, and a lane would move the clock backwards.
4. The adapters charge the running invocation: ``_Timers.arm`` ``run.send(fifo=False)``; ``_Fifo._send``
   ``run.send(fifo=True)``; ``_Workflows.*`` ``run.start_execution()``; ``_Pushes.many`` (and each single
   push, a round of one) ``delivery.charge_pushes``: a Query of the connections' index per push (a table's
   ``subscribers``, a player's connections; eventually consistent), all at once, then ``run.post(n)`` of them
   all at once, ``n`` the tables' seated players and one per player, ``POST_WORKERS`` at a time (the
   Queries ``QUERY_WORKERS``) as ``adapters/aws.py`` makes them.
5. Delivery: ``DELIVERY_SECONDS`` and ``TASK_SECONDS`` become ``latencies.sqs_to_lambda`` and
   ``state_transition``. ``_Fifo._deliver`` takes up to ``batch_size`` (10, the template's) messages of the group
   in one invocation, processes them in order and stops at the first failure (``SqsFifoPartialProcessor``: the
   rest go back to the head), keeps the group busy until the invocation's ``end`` and polls again then
   (``FifoQueue`` in ``capacity.py`` has these semantics). A throttled delivery (``invocation`` None) is tried
   again at ``aws.next_free(function)`` without counting a receive (the event source's maximum concurrency equals
   the reservation, so SQS keeps the message). A throttled workflow task fails its attempt (Step Functions'
   retry policy takes over); a throttled API call answers 429.
6. Workflows: ``aws.cost.state_transitions(1)`` per state entered (each yielded Task and Wait, and the Choice and
   Map states around them); the next state ``state_transition`` after the task's ``end``.
7. Schedules: ``_StartScheduler.schedule`` and ``every`` fire at ``latency.scheduled_fire(at, rng)``, inside the
   minute of ``at`` (possibly before it: the start must handle an early fire).
8. The report (``tourney bench capacity``): ``aws.meters.hottest()``, ``aws.throttled_requests``,
   ``aws.item_max_bytes``, ``{f: c.peak for f, c in aws.concurrency.items()}``,
   ``aws.cost.report(hands).per_1000_hands()`` and ``.requests_per_1000_hands()``.

Not modeled (yet): an on-demand table's starting capacity (4,000 write and 12,000 read units at once, doubling of
the previous peak within 30 minutes), the account's table quota (40,000 units a second each way), Lambda's
scaling rate (1,000 environments every 10 seconds per function), the account concurrency shared by unreserved
functions, idle execution environments being recycled, the SDK's client-side retry quota (500 tokens, 5 per
throttled retry), SQS's 300 API calls a second per FIFO queue without high throughput mode, and the account's
10,000 requests a second across API Gateway.
"""
