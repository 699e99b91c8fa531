"""The local runtime: the synthesized CloudFormation template, run on one machine.

``tourney local up`` reads ``cdk.out/<Stack>.template.json`` (the single wiring,
docs/architecture.md, principle 3) and emulates it on 127.0.0.1 with no AWS account and no
Docker:

- ``template``: the template read into resources, intrinsic functions resolved
  to their local equivalents;
- ``moto_server``: a moto server with every DynamoDB table and SQS queue of
  the template, SQS delays compressed by the time factor;
- ``lambdas``: the functions' handlers imported in-process from the
  repository, each invocation with the environment the template gives it;
- ``http_api``, ``websocket_api``, ``gateway``: the HTTP API (payload 2.0,
  JWT authorizer) and the WebSocket API (``$connect``, ``$disconnect``,
  ``$default``, custom routes, ``@connections``) on one aiohttp server;
- ``jwt_keys``: the runtime's own signing keys (``tourney local token``);
- ``pollers``: the SQS event-source mappings;
- ``schedules``: EventBridge rules, template schedules and the one-time
  Scheduler schedules that handlers create at run time;
- ``workflows``: the state machines, run by moto's executor with Lambda tasks
  routed to the in-process handlers and waits compressed;
- ``clock``: the virtual clock of ``--time-factor``, told to the functions;
- ``synth``: ``python app.py`` when ``cdk.out`` is missing or stale;
- ``runtime``: the composition (``LocalRuntime``); ``command``: the CLI.

``README.md`` beside this file says what runs where and what is not emulated.
"""
