"""RQ workers: turn deadlines, reminders, bots, the sweeper, end of game and notifications.

    clock      pure: whom a game waits for since when, deadlines and banks, from recorded times
    turns      the clock cached in Redis, and what happens once per wait (after_change: schedule
               the timeout, the reminder, a bot's move; index the deadline; announce the turn)
    deadlines  the timeout job's judgement, reminders, the sweeper
    bots       a greedy bot policy and the job that plays a bot's wait
    endgame    standings, openskill ratings, the archive, "game over"
    notify     per-player inbox stream (for SSE) and webhook enqueueing, each notification once
    webhooks   signed deliveries (X-Arena-Signature), failures recorded, retried by RQ
    queues     job ids, queues, scheduling and cancelling
    jobs       the RQ job functions (thin)
    worker     the worker class (SimpleWorker that keeps the sweeper running)
    settings   environment variables; runtime: connection, service and clock of a job
    rq_settings  settings module for `rq worker -c workers.rq_settings`

Dependencies point one way: server -> workers -> events -> engine.
"""
