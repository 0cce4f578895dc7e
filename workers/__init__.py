"""RQ workers and their deadline loops: turn deadlines, reminders, bots, end of game, notifications.

    clock      pure: whom a game waits for since when, deadlines and banks, from recorded times
    turns      the clock cached in Redis, and what happens once per wait (after_change: index the
               timeout, the reminder, a bot's move; announce the turn)
    due        the deadline index (a sorted set by due time) and the claims on it
    deadline_loop  the thread in every worker that applies what is due (timeouts at once)
    deadlines  what the loop does with each due member: timeouts judged, reminders, missing jobs
    recovery   worker pulses, jobs of dead workers handed back to RQ, due scheduled jobs moved
    bots       a greedy bot policy and the job that plays a bot's wait
    endgame    standings, openskill ratings, the archive, "game over"
    notify     per-player inbox stream (for SSE) and webhook enqueueing, each notification once
    webhooks   signed deliveries (X-Arena-Signature), failures recorded, retried by RQ
    queues     job ids, queues, scheduling and cancelling
    jobs       the RQ job functions (thin)
    worker     the worker class (SimpleWorker with a deadline loop; restarts RQ's loop if it quits)
    crash_points named points where a crash test holds a worker (ARENA_PAUSE_AT)
    runtime    a job's connection, service, clock and settings (events/settings.py, read once per process)
    rq_settings  settings module for `rq worker -c workers.rq_settings`

Dependencies point one way: server -> workers -> events -> engine.
"""
