/* Baohuang's compiled core: a whole deal (dealing, tribute, the opening, play, scoring) and the
 * rules bot's play policy, in C.
 *
 * The Python engine (variants.py, tribute.py, opening.py, rules.py, sets.py, hands.py,
 * house.py, scoring.py) and the policy (yamen/bots/baohuang/play.py, hand.py, playout.py) are
 * the reference; this file ports them line by line, so that whole search playouts run without
 * the interpreter. Every function names the Python it ports; tests/games/baohuang/
 * test_core.py steps both in lockstep (legal ids, the state after every action, the policy's
 * choice, the places and scores, the hands dealt and the tribute paid) and fails on any
 * difference. A rule changed in Python must be changed here too (docs/architecture.md says
 * how).
 *
 * A deal crosses the boundary packed (core.py's pack(): one signed byte per field, the layout
 * below); the module keeps nothing between calls. Built as yamen.games.baohuang._core by
 * setup.py where a C compiler is found; without it the Python engine runs alone.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { NK = 56, NS = 15, SMALL = 13, BIG = 14, NO_RANK = 13, PLAY_BASE = 64, MAXSET = 24 };
enum { PASS = 0, YIELD = 1, CLAIM = 2, GRAB = 3, KEEP = 4, HAND_ON = 5, DECLARE = 6, REBEL = 7,
       CALL_BASE = 8, SJ = 52, BJ = 53, SJM = 54, BJM = 55 };
/* the phases of a deal (phases.py; OVER is PLAY with nobody pending) */
enum { PH_PLAY = 0, PH_GRAB = 1, PH_CALL = 2, PH_FORCE = 3, PH_EMPEROR_CARD = 4, PH_DECLARE = 5 };
enum { MAXLEGAL = 8192, ENDGAME = 10, CONTROL = 11, MAX_DECISIONS = 20000 };
/* public roles, as codes (core.py ROLE_CODES) */
enum { R_NONE = 0, R_EMPEROR = 1, R_PARTNER = 2, R_SOLO = 3, R_COMMONER = 4, R_REBEL = 5 };

/* The packed layout: offsets into the byte string (core.py builds it from these names). */
enum {
    P_HANDS = 0,                 /* 5 x 56 kind counts */
    P_FLAGS = P_HANDS + 5 * NK,  /* single_with_jokers, yield_and_claim, reveal_by_call, other role */
    P_TELL = P_FLAGS + 4,        /* tell_kind, called (-1: none) */
    P_SIDES = P_TELL + 2,        /* emperor, partner (-1), grabbed */
    P_HOUSE = P_SIDES + 3,       /* edition, hard_pass, sink_rank, held_rank */
    P_ROLES = P_HOUSE + 4,       /* 5 public role codes */
    P_OUT = P_ROLES + 5,         /* count, then 5 seats */
    P_SUNK = P_OUT + 6,          /* count, then 5 seats */
    P_TABLE = P_SUNK + 6,        /* has_table, r, n, x, y, owner, stage, claimant */
    P_ASK = P_TABLE + 8,         /* count, then 5 seats */
    P_YIELD = P_ASK + 6,         /* count, then 5 seats */
    P_PASSED = P_YIELD + 6,      /* 5 flags */
    P_PENDING = P_PASSED + 5,    /* the seat to act, -1 when the deal is over */
    P_STAKES = P_PENDING + 1,    /* family (0 shandong, 1 japanese), declared, solo declared, rebellion */
    P_OPEN = P_STAKES + 4,       /* phase, holder, first holder, handed on, solo */
    P_ASKED = P_OPEN + 5,        /* 5 flags: a window's seats still to answer */
    P_ANSWERS = P_ASKED + 5,     /* 5 sealed answers, -1: none */
    P_RULES = P_ANSWERS + 5,     /* grabbing, cede, calls guard, royalist declares, solo declares */
    P_VOID = P_RULES + 5,        /* the deal ended void (黃莊): nobody took the seat */
    P_SIZE = P_VOID + 1
};

typedef struct {
    int8_t hand[5][NK], slots[5][NS], size[5], active[5], passed[5], roles[5];
    uint32_t masks[5][MAXSET + 1];
    int8_t out[5], n_out, sunk[5], n_sunk, after[5][4], n_after[5];
    int8_t has_table, table[4], owner, stage, claimant, pending;
    int8_t to_ask[5], n_ask, yielders[5], n_yield;
    int8_t single, yield_claim, by_call, other_role, tell_kind, called, emperor, partner, grabbed;
    int8_t edition, hard_pass, sink_rank, held_rank, over;
    int8_t family, declared, solo_declared, rebellion;
    int8_t phase, holder, first_holder, handed_on, solo, asked[5], answers[5];
    int8_t grabbing, cede, calls_guard, royalist_declares, solo_declares, void_deal;
} Deal;

static const double RANK_COST[13] = {0.0, 0.0, 0.1, 0.2, 0.3, 0.4, 0.6, 0.8, 1.0, 1.4, 2.0, 3.0, 4.5};

static inline int enc(int r, int n, int x, int y, int t) {
    return PLAY_BASE + (((r * 17 + n) * 5 + x) * 5 + y) * 5 + t;
}
static inline void dec(int a, int *r, int *n, int *x, int *y, int *t) {
    a -= PLAY_BASE;
    *t = a % 5; a /= 5;
    *y = a % 5; a /= 5;
    *x = a % 5; a /= 5;
    *n = a % 17;
    *r = a / 17;
}
static inline int imax(int a, int b) { return a > b ? a : b; }
static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int slot_of(int k) { return k < 52 ? k / 4 : (k == SJ || k == SJM) ? SMALL : BIG; }

/* fields.py: still_in_after, the play order from each seat, seats out skipped */
static void still_in_after(Deal *d) {
    for (int i = 0; i < 5; i++) {
        d->n_after[i] = 0;
        for (int j = 1; j < 5; j++) {
            int s = (i + j) % 5;
            if (d->active[s]) d->after[i][d->n_after[i]++] = (int8_t)s;
        }
    }
}

/* ------------------------------------------------------------------ packing */

/* Each byte's range (inclusive), so that no packed deal can index out of the arrays. */
static int in_range(const int8_t *p, int at, int count, int low, int high) {
    for (int i = at; i < at + count; i++)
        if (p[i] < low || p[i] > high) {
            PyErr_Format(PyExc_ValueError, "packed deal: byte %d is %d, not in %d..%d", i, p[i],
                         low, high);
            return 0;
        }
    return 1;
}

static int valid(const int8_t *p) {
    return in_range(p, P_HANDS, 5 * NK, 0, 4) && in_range(p, P_FLAGS, 3, 0, 1) &&
           in_range(p, P_FLAGS + 3, 1, R_COMMONER, R_REBEL) && in_range(p, P_TELL, 2, -1, NK - 1) &&
           in_range(p, P_SIDES, 2, -1, 4) &&
           in_range(p, P_SIDES + 2, 1, 0, 1) && in_range(p, P_HOUSE, 2, 0, 2) &&
           in_range(p, P_HOUSE + 2, 2, -1, 12) && in_range(p, P_ROLES, 5, R_NONE, R_REBEL) &&
           in_range(p, P_OUT, 1, 0, 4) && in_range(p, P_OUT + 1, 5, 0, 4) &&
           in_range(p, P_SUNK, 1, 0, 4) && in_range(p, P_SUNK + 1, 5, 0, 4) &&
           in_range(p, P_TABLE, 1, 0, 1) && in_range(p, P_TABLE + 1, 1, 0, NO_RANK) &&
           in_range(p, P_TABLE + 2, 1, 0, 16) && in_range(p, P_TABLE + 3, 2, 0, 4) &&
           in_range(p, P_TABLE + 5, 1, p[P_TABLE] ? 0 : -1, 4) &&
           in_range(p, P_TABLE + 6, 1, 1, 2) && in_range(p, P_TABLE + 7, 1, -1, 4) &&
           in_range(p, P_ASK, 1, p[P_TABLE] && p[P_PENDING] >= 0 ? 1 : 0, 4) &&
           in_range(p, P_ASK + 1, 5, 0, 4) && in_range(p, P_YIELD, 1, 0, 4) &&
           in_range(p, P_YIELD + 1, 5, 0, 4) && in_range(p, P_PASSED, 5, 0, 1) &&
           in_range(p, P_PENDING, 1, -1, 4) && in_range(p, P_STAKES, 4, 0, 1) &&
           in_range(p, P_OPEN, 1, PH_PLAY, PH_DECLARE) && in_range(p, P_OPEN + 1, 2, 0, 4) &&
           in_range(p, P_OPEN + 3, 1, 0, 5) && in_range(p, P_OPEN + 4, 1, 0, 1) &&
           in_range(p, P_ASKED, 5, 0, 1) && in_range(p, P_ANSWERS, 5, -1, REBEL) &&
           in_range(p, P_RULES, 6, 0, 1);
}

/* What every deal the rules reach has, so that no packed deal can take the play or the scoring
 * past its arrays: each seat is out (once, holding nothing) or still in (holding cards: at most
 * four jokers of a colour, as the action ids count them), the sunk seats are distinct seats
 * out, the emperor is not its own partner, a deal not over has a seat still in to
 * act and at most three seats out, and a circle asks at most the four other seats (those still
 * to answer and those who yielded together), all still in, as is a seat that claimed the next
 * lead. */
static int consistent(const Deal *d) {
    const char *wrong = NULL;
    int seen = 0;
    for (int i = 0; i < d->n_out; i++) {
        if (seen >> d->out[i] & 1) wrong = "a seat is out twice";
        seen |= 1 << d->out[i];
    }
    for (int s = 0; s < 5; s++) {
        if (d->active[s] != (d->size[s] > 0)) wrong = "a seat out holds cards, or one in holds none";
        if (d->active[s] == (seen >> s & 1)) wrong = "a seat is both out and in, or neither";
        if (d->slots[s][SMALL] > 4 || d->slots[s][BIG] > 4) wrong = "more than four jokers of a colour";
    }
    int sunk = 0;
    for (int i = 0; i < d->n_sunk; i++) {
        if (!(seen >> d->sunk[i] & 1) || sunk >> d->sunk[i] & 1)
            wrong = "a sunk seat is not out, or sunk twice";
        sunk |= 1 << d->sunk[i];
    }
    if (d->partner >= 0 && d->partner == d->emperor) wrong = "the emperor is its own partner";
    int opening = d->phase != PH_PLAY, window = d->phase == PH_GRAB || d->phase == PH_DECLARE;
    if (d->void_deal && !(opening && d->over)) wrong = "a void deal that is not over before play";
    if (opening && !d->void_deal && (d->over || d->n_out || d->has_table))
        wrong = "a deal before play that is over or has sets played";
    if ((d->phase == PH_PLAY || d->phase == PH_DECLARE) && d->emperor < 0 && !d->void_deal)
        wrong = "a deal in play or declaring without an emperor";
    if (opening && !d->over) { /* what the opening reads */
        if (window && !d->asked[d->pending]) wrong = "the seat to answer was not asked";
        if ((d->phase == PH_CALL || d->phase == PH_EMPEROR_CARD) && d->pending != d->holder)
            wrong = "the seat to act does not hold the marked joker";
        if (d->phase != PH_FORCE && d->phase != PH_DECLARE && !d->hand[d->holder][BJM])
            wrong = "the holder holds no marked big joker";
        int guard = 0;
        for (int s = 0; s < 5; s++) guard |= d->hand[s][SJM] > 0;
        if (d->phase == PH_EMPEROR_CARD && !d->calls_guard && !guard) wrong = "no guard card dealt";
    }
    if (!d->over) { /* what play reads: an ended deal is only placed and scored */
        if (d->n_out > 3 || !d->active[d->pending]) wrong = "no seat still in to act";
        if (d->n_ask + d->n_yield > 4) wrong = "more than four seats asked";
        for (int i = 0; i < d->n_ask; i++)
            if (!d->active[d->to_ask[i]]) wrong = "a seat out is asked";
        for (int i = 0; i < d->n_yield; i++)
            if (!d->active[d->yielders[i]]) wrong = "a seat out yielded";
        if (d->claimant >= 0 && !d->active[d->claimant]) wrong = "a seat out claimed the lead";
    }
    if (wrong) {
        PyErr_Format(PyExc_ValueError, "packed deal: %s", wrong);
        return -1;
    }
    return 0;
}

/* What the hands and the seats out give (zeroed before): slots, sizes, rank masks, who is in. */
static void derive(Deal *d) {
    for (int s = 0; s < 5; s++) {
        d->active[s] = 1;
        for (int k = 0; k < NK; k++) {
            d->slots[s][slot_of(k)] += d->hand[s][k];
            d->size[s] += d->hand[s][k];
        }
        for (int r = 0; r < 13; r++)
            for (int n = 0; n <= d->slots[s][r]; n++) d->masks[s][n] |= 1u << r;
    }
    for (int i = 0; i < d->n_out; i++) d->active[d->out[i]] = 0;
    still_in_after(d);
}

static int unpack(Deal *d, const int8_t *p, Py_ssize_t len) {
    if (len != P_SIZE) {
        PyErr_Format(PyExc_ValueError, "a packed deal is %d bytes, not %zd", P_SIZE, len);
        return -1;
    }
    if (!valid(p)) return -1;
    memset(d, 0, sizeof *d);
    memcpy(d->hand, p + P_HANDS, 5 * NK);
    d->single = p[P_FLAGS]; d->yield_claim = p[P_FLAGS + 1];
    d->by_call = p[P_FLAGS + 2]; d->other_role = p[P_FLAGS + 3];
    d->tell_kind = p[P_TELL]; d->called = p[P_TELL + 1];
    d->emperor = p[P_SIDES]; d->partner = p[P_SIDES + 1]; d->grabbed = p[P_SIDES + 2];
    d->edition = p[P_HOUSE]; d->hard_pass = p[P_HOUSE + 1];
    d->sink_rank = p[P_HOUSE + 2]; d->held_rank = p[P_HOUSE + 3];
    memcpy(d->roles, p + P_ROLES, 5);
    d->n_out = p[P_OUT]; memcpy(d->out, p + P_OUT + 1, 5);
    d->n_sunk = p[P_SUNK]; memcpy(d->sunk, p + P_SUNK + 1, 5);
    d->has_table = p[P_TABLE];
    memcpy(d->table, p + P_TABLE + 1, 4);
    d->owner = p[P_TABLE + 5]; d->stage = p[P_TABLE + 6]; d->claimant = p[P_TABLE + 7];
    d->n_ask = p[P_ASK]; memcpy(d->to_ask, p + P_ASK + 1, 5);
    d->n_yield = p[P_YIELD]; memcpy(d->yielders, p + P_YIELD + 1, 5);
    memcpy(d->passed, p + P_PASSED, 5);
    d->pending = p[P_PENDING];
    d->family = p[P_STAKES]; d->declared = p[P_STAKES + 1];
    d->solo_declared = p[P_STAKES + 2]; d->rebellion = p[P_STAKES + 3];
    d->phase = p[P_OPEN]; d->holder = p[P_OPEN + 1]; d->first_holder = p[P_OPEN + 2];
    d->handed_on = p[P_OPEN + 3]; d->solo = p[P_OPEN + 4];
    memcpy(d->asked, p + P_ASKED, 5);
    memcpy(d->answers, p + P_ANSWERS, 5);
    d->grabbing = p[P_RULES]; d->cede = p[P_RULES + 1]; d->calls_guard = p[P_RULES + 2];
    d->royalist_declares = p[P_RULES + 3]; d->solo_declares = p[P_RULES + 4];
    d->void_deal = p[P_VOID];
    d->over = d->pending < 0;
    derive(d);
    return consistent(d);
}

static void pack(const Deal *d, int8_t *p) {
    memset(p, 0, P_SIZE);
    memcpy(p + P_HANDS, d->hand, 5 * NK);
    p[P_FLAGS] = d->single; p[P_FLAGS + 1] = d->yield_claim;
    p[P_FLAGS + 2] = d->by_call; p[P_FLAGS + 3] = d->other_role;
    p[P_TELL] = d->tell_kind; p[P_TELL + 1] = d->called;
    p[P_SIDES] = d->emperor; p[P_SIDES + 1] = d->partner; p[P_SIDES + 2] = d->grabbed;
    p[P_HOUSE] = d->edition; p[P_HOUSE + 1] = d->hard_pass;
    p[P_HOUSE + 2] = d->sink_rank; p[P_HOUSE + 3] = d->held_rank;
    memcpy(p + P_ROLES, d->roles, 5);
    p[P_OUT] = d->n_out; memcpy(p + P_OUT + 1, d->out, (size_t)d->n_out);
    p[P_SUNK] = d->n_sunk; memcpy(p + P_SUNK + 1, d->sunk, (size_t)d->n_sunk);
    p[P_TABLE] = d->has_table;
    if (d->has_table) memcpy(p + P_TABLE + 1, d->table, 4);
    p[P_TABLE + 5] = d->owner; p[P_TABLE + 6] = d->stage; p[P_TABLE + 7] = d->claimant;
    p[P_ASK] = d->n_ask; memcpy(p + P_ASK + 1, d->to_ask, (size_t)d->n_ask);
    p[P_YIELD] = d->n_yield; memcpy(p + P_YIELD + 1, d->yielders, (size_t)d->n_yield);
    memcpy(p + P_PASSED, d->passed, 5);
    p[P_PENDING] = d->over ? -1 : d->pending;
    p[P_STAKES] = d->family; p[P_STAKES + 1] = d->declared;
    p[P_STAKES + 2] = d->solo_declared; p[P_STAKES + 3] = d->rebellion;
    p[P_OPEN] = d->phase; p[P_OPEN + 1] = d->holder; p[P_OPEN + 2] = d->first_holder;
    p[P_OPEN + 3] = d->handed_on; p[P_OPEN + 4] = d->solo;
    memcpy(p + P_ASKED, d->asked, 5);
    memcpy(p + P_ANSWERS, d->answers, 5);
    p[P_RULES] = d->grabbing; p[P_RULES + 1] = d->cede; p[P_RULES + 2] = d->calls_guard;
    p[P_RULES + 3] = d->royalist_declares; p[P_RULES + 4] = d->solo_declares;
    p[P_VOID] = d->void_deal;
}

/* ------------------------------------------------------------------ legal sets (sets.py) */

static int telling_of(const Deal *d, int seat, int *tell_slot) {
    int tk = d->tell_kind, telling = tk >= 0 ? d->hand[seat][tk] : 0;
    *tell_slot = telling ? slot_of(tk) : -1;
    return telling;
}

/* leads(), then house.leads_allowed() where lowest_held narrows them */
static int leads(const Deal *d, int seat, int *out) {
    const int8_t *c = d->slots[seat];
    int tell_slot, telling = telling_of(d, seat, &tell_slot);
    int small = c[SMALL], big = c[BIG], st = tell_slot == SMALL ? telling : 0;
    int offsets[200], no = 0, m = 0;
    for (int x = 0; x <= small; x++)
        for (int y = 0; y <= big; y++)
            for (int t = imax(0, x - (small - st)); t <= imin(x, st); t++)
                offsets[no++] = (x * 5 + y) * 5 + t;
    int ns = d->single ? no : 1;
    for (int r = 0; r < 13; r++) {
        int held = c[r];
        if (!held) continue;
        if (r == tell_slot) {
            for (int n = 1; n <= held; n++) {
                int k = n > 1 ? no : ns;
                for (int t = imax(0, n - (held - telling)); t <= imin(n, telling); t++)
                    for (int i = 0; i < k; i++) out[m++] = enc(r, n, 0, 0, 0) + t + offsets[i];
            }
            continue;
        }
        for (int i = 0; i < ns; i++) out[m++] = enc(r, 1, 0, 0, 0) + offsets[i];
        for (int n = 2; n <= held; n++)
            for (int i = 0; i < no; i++) out[m++] = enc(r, n, 0, 0, 0) + offsets[i];
    }
    for (int i = 1; i < no; i++) out[m++] = enc(NO_RANK, 0, 0, 0, 0) + offsets[i];
    int held = d->held_rank;
    if (held >= 0 && c[held]) {
        int kept = 0;
        for (int i = 0; i < m; i++) {
            int r, n, x, y, t;
            dec(out[i], &r, &n, &x, &y, &t);
            if (!(n > 0 && r == held && n + x + y < d->size[seat])) out[kept++] = out[i];
        }
        m = kept;
    }
    return m;
}

/* follows() and _follows_telling(): the sets that beat the table */
static int follows(const Deal *d, int seat, int *out, int m) {
    const int8_t *c = d->slots[seat];
    int rb = d->table[0], nb = d->table[1], xb = d->table[2], yb = d->table[3];
    int small = c[SMALL], big = c[BIG];
    if (yb || big < xb) return m;
    int tell_slot, telling = telling_of(d, seat, &tell_slot);
    int st = tell_slot == SMALL ? telling : 0;
    int k = nb + xb;
    uint32_t above = nb ? (uint32_t)(~0u << (rb + 1)) : 0u;
    for (int y = xb; y <= imin(k, big); y++)
        for (int x = 0; x <= imin(k - y, small); x++) {
            int n = k - y - x, o = (x * 5 + y) * 5, t0 = 0, t1 = 0;
            if (tell_slot >= 0) { t0 = imax(0, x - (small - st)); t1 = imin(x, st); }
            if (n == 0) {
                for (int t = t0; t <= t1; t++) out[m++] = enc(NO_RANK, 0, 0, 0, 0) + o + t;
                continue;
            }
            if (n == 1 && (x || y) && !d->single) continue;
            uint32_t mask = d->masks[seat][n] & above & 0x1fffu;
            if (tell_slot >= 0 && tell_slot < 13 && (mask >> tell_slot & 1)) {
                mask &= ~(1u << tell_slot);
                int held = c[tell_slot], base = enc(tell_slot, n, 0, 0, 0) + o + t0;
                for (int t = imax(0, n - (held - telling)); t <= imin(n, telling); t++)
                    out[m++] = base + t;
            }
            for (int r = 0; mask; r++, mask >>= 1)
                if (mask & 1)
                    for (int t = t0; t <= t1; t++) out[m++] = enc(r, n, 0, 0, 0) + o + t;
        }
    return m;
}

/* rules.py answer_words(): pass; yield in the first circle; claim (接風) there after a set
 * that put its owner out, until someone claims (edition 2: the owner's next seat only) */
static int answer_words(const Deal *d, int *out) {
    int m = 0;
    out[m++] = PASS;
    if (d->yield_claim && d->stage == 1) {
        out[m++] = YIELD;
        int owner = d->owner;
        if (d->claimant < 0 && !d->active[owner] &&
            (d->edition < 2 || d->to_ask[0] == d->after[owner][0]))
            out[m++] = CLAIM;
    }
    return m;
}

static int opening_legal(const Deal *d, int seat, int *out);

/* rules.py _legal_actions() */
static int legal(const Deal *d, int *out) {
    if (d->over) return 0;
    if (d->phase != PH_PLAY) return opening_legal(d, d->pending, out);
    if (!d->has_table) return leads(d, d->pending, out);
    return follows(d, d->pending, out, answer_words(d, out));
}

/* ------------------------------------------------------------------ apply (rules.py) */

static void take_from(int8_t *h, int k, int tk, int *left) {
    if (*left > 0 && k != tk && h[k]) {
        int q = imin(*left, h[k]);
        h[k] -= (int8_t)q;
        *left -= q;
    }
}

/* hands.py take(): which kinds leave the hand (telling cards as chosen, the rest in order) */
static void take(Deal *d, int seat, int r, int n, int x, int y, int t) {
    int8_t *h = d->hand[seat], *s = d->slots[seat];
    int tk = d->tell_kind;
    if (n) {
        int held = s[r];
        s[r] = (int8_t)(held - n);
        for (int m = held - n + 1; m <= held; m++) d->masks[seat][m] &= ~(1u << r);
    }
    s[SMALL] -= (int8_t)x;
    s[BIG] -= (int8_t)y;
    int left = y;
    take_from(h, BJ, tk, &left);
    take_from(h, BJM, tk, &left);
    if (tk == SJM && t) {
        h[SJM] -= (int8_t)t;
        left = x - t;
        take_from(h, SJ, tk, &left);
    } else if (x) {
        left = x;
        take_from(h, SJ, tk, &left);
        take_from(h, SJM, tk, &left);
    }
    if (n) {
        if (tk >= 0 && tk < 52 && t) { h[tk] -= (int8_t)t; n -= t; }
        left = n;
        for (int k = r * 4; k < r * 4 + 4; k++) take_from(h, k, tk, &left);
    }
}

/* variants.py unmasked() through rules.py _reveal_by_play() */
static void reveal_by_play(Deal *d, int seat, int x, int y, int t) {
    int emperor = d->emperor;
    if (d->grabbed || (d->roles[seat] && seat != emperor)) return;
    int role = R_NONE;
    if (d->by_call) { /* unmasked_by_call */
        int called = d->called;
        if (seat != emperor && called >= 0 &&
            ((t && called < 52) || (x && called == SJ) || (y && called == BJ)))
            role = R_PARTNER;
    } else if (t) { /* the guard card */
        role = seat == emperor ? R_SOLO : R_PARTNER;
    }
    if (role) d->roles[seat] = (int8_t)role;
}

static void set_turn(Deal *d, int seat) { d->pending = (int8_t)seat; }

static void lead_from(Deal *d, int seat) {
    d->has_table = 0;
    d->owner = -1;
    memset(d->passed, 0, 5);
    set_turn(d, seat);
}

static void close_trick(Deal *d) {
    int owner = d->owner, leader;
    if (d->claimant >= 0) leader = d->claimant;       /* 接風 */
    else if (d->active[owner]) leader = owner;        /* 扣牌 */
    else leader = d->after[owner][0];
    lead_from(d, leader);
}

static void play_set(Deal *d, int seat, int action) {
    int r, n, x, y, t;
    dec(action, &r, &n, &x, &y, &t);
    take(d, seat, r, n, x, y, t);
    d->size[seat] -= (int8_t)(n + x + y);
    d->has_table = 1;
    d->table[0] = (int8_t)r; d->table[1] = (int8_t)n; d->table[2] = (int8_t)x; d->table[3] = (int8_t)y;
    d->owner = (int8_t)seat;
    if (t || x || y) reveal_by_play(d, seat, x, y, t);
    if (d->size[seat] == 0) {
        d->out[d->n_out++] = (int8_t)seat;
        d->active[seat] = 0;
        if (n > 0 && r == d->sink_rank) d->sunk[d->n_sunk++] = (int8_t)seat;
        if (d->n_out == 4) { d->over = 1; return; }
        still_in_after(d);
    }
    d->n_ask = 0; /* house.to_ask() */
    for (int i = 0; i < d->n_after[seat]; i++) {
        int s = d->after[seat][i];
        if (!d->hard_pass || !d->passed[s]) d->to_ask[d->n_ask++] = (int8_t)s;
    }
    d->n_yield = 0;
    d->stage = 1;
    d->claimant = -1;
    if (d->n_ask) set_turn(d, d->to_ask[0]);
    else close_trick(d);
}

/* rules.py _act() in play; the caller has checked the action */
static void act_before_play(Deal *d, int action);

static void apply(Deal *d, int action) {
    int seat = d->pending;
    if (d->phase != PH_PLAY) { act_before_play(d, action); return; }
    if (action >= PLAY_BASE) { play_set(d, seat, action); return; }
    memmove(d->to_ask, d->to_ask + 1, (size_t)--d->n_ask);
    if (action == YIELD) d->yielders[d->n_yield++] = (int8_t)seat;
    else if (action == CLAIM) d->claimant = (int8_t)seat;
    else d->passed[seat] = 1;
    if (d->n_ask) set_turn(d, d->to_ask[0]);
    else if (d->stage == 1 && d->n_yield) { /* 讓牌: the yielders go again */
        d->stage = 2;
        memcpy(d->to_ask, d->yielders, (size_t)d->n_yield);
        d->n_ask = d->n_yield;
        d->n_yield = 0;
        set_turn(d, d->to_ask[0]);
    } else close_trick(d);
}

/* ------------------------------------------------------------------ the opening (opening.py) */

enum { ROUND_OF_HOLDERS = 5, GO_ON = 0, END_PLAY = 1, END_VOID = 2 };

static int copies(const Deal *d, int seat, int kind) { /* jokers by colour, marked included */
    return kind < 52 ? d->hand[seat][kind] : d->slots[seat][slot_of(kind)];
}

/* calls() (FORCE: exactly 3 copies): the callable kinds are the naturals, SJ and BJ, in order */
static int calls(const Deal *d, int seat, int exactly, int *out) {
    int m = 0;
    for (int kind = 0; kind <= BJ; kind++) {
        int c = copies(d, seat, kind);
        if (exactly ? c == 3 : c >= 3) out[m++] = CALL_BASE + kind;
    }
    return m;
}

static int may_cede(const Deal *d, int can_take) { return d->cede || !can_take; }

/* opening.legal() */
static int opening_legal(const Deal *d, int seat, int *out) {
    int m = 0;
    switch (d->phase) {
    case PH_GRAB:
        out[m++] = PASS;
        out[m++] = GRAB;
        return m;
    case PH_DECLARE: /* variants.py declare_answers(), partner_answers() */
        out[m++] = PASS;
        if (seat == d->emperor) {
            if (d->solo && d->solo_declares) out[m++] = DECLARE;
        } else if (d->family == 0) {
            if (seat == d->partner && d->royalist_declares) out[m++] = DECLARE;
        } else if (seat != d->partner) {
            out[m++] = REBEL;
        }
        return m;
    case PH_CALL:
        m = calls(d, seat, 0, out);
        if (may_cede(d, m > 0)) out[m++] = YIELD;
        if (d->grabbing) out[m++] = GRAB;
        return m;
    case PH_FORCE:
        return calls(d, seat, 1, out);
    default: /* PH_EMPEROR_CARD */
        if (d->calls_guard) m = calls(d, seat, 0, out);
        else out[m++] = KEEP;
        if (d->handed_on == ROUND_OF_HOLDERS || !may_cede(d, m > 0)) return m;
        out[m++] = HAND_ON;
        return m;
    }
}

static void move_card(Deal *d, int kind, int giver, int taker) { /* fields.py move() */
    d->hand[giver][kind]--; d->hand[taker][kind]++;
    d->slots[giver][slot_of(kind)]--; d->slots[taker][slot_of(kind)]++;
    d->size[giver]--; d->size[taker]++;
    /* the marked jokers are the only cards moved before play: no rank masks change */
}

static void open_window(Deal *d, int phase, int except) {
    d->phase = (int8_t)phase;
    for (int s = 0; s < 5; s++) {
        d->answers[s] = -1;
        d->asked[s] = s != except;
    }
    d->pending = (int8_t)(except == 0 ? 1 : 0);
}

static int grab(Deal *d, int seat) {
    if (seat != d->holder) move_card(d, BJM, d->holder, seat);
    d->emperor = (int8_t)seat;
    d->grabbed = 1;
    d->roles[seat] = R_EMPEROR;
    return END_PLAY; /* nobody declares after a grab */
}

static void call(Deal *d, int seat, int kind) { /* 叫莊 */
    d->emperor = (int8_t)seat;
    d->called = (int8_t)kind;
    d->solo = copies(d, seat, kind) == 4;
    if (!d->solo)
        for (int s = 0; s < 5 && d->partner < 0; s++)
            if (s != seat && copies(d, s, kind)) d->partner = (int8_t)s;
    d->tell_kind = (int8_t)(kind < 52 ? kind : -1);
    d->roles[seat] = R_EMPEROR;
    open_window(d, PH_DECLARE, -1);
}

static int force(Deal *d) { /* 逼莊, else 黃莊 */
    int h = d->first_holder, out[64];
    for (int i = 0; i < 5; i++) {
        int seat = (h - i + 5) % 5;
        if (calls(d, seat, 1, out)) {
            d->phase = PH_FORCE;
            set_turn(d, seat);
            return GO_ON;
        }
    }
    return END_VOID;
}

static int close_declarations(Deal *d) { /* 明保 / 明獨 / 反乱 */
    for (int s = 0; s < 5; s++) {
        if (d->answers[s] == DECLARE) {
            if (s == d->emperor) { d->solo_declared = 1; d->roles[s] = R_SOLO; }
            else { d->declared = 1; d->roles[s] = R_PARTNER; }
        } else if (d->answers[s] == REBEL) {
            d->rebellion = 1;
            d->roles[s] = d->other_role;
        }
    }
    return END_PLAY;
}

/* opening.act(): a legal action of the pending seat before play; how the opening ended */
static int opening_act(Deal *d, int action) {
    int seat = d->pending;
    if (d->phase == PH_GRAB || d->phase == PH_DECLARE) {
        d->answers[seat] = (int8_t)action;
        d->asked[seat] = 0;
        for (int s = 0; s < 5; s++)
            if (d->asked[s]) { set_turn(d, s); return GO_ON; }
        if (d->phase == PH_DECLARE) return close_declarations(d);
        for (int i = 1; i < 5; i++) { /* the earliest grabber clockwise from the holder */
            int s = (d->holder - i + 5) % 5;
            if (d->answers[s] == GRAB) return grab(d, s);
        }
        d->phase = PH_CALL;
        set_turn(d, d->holder);
        return GO_ON;
    }
    if (d->phase == PH_CALL && action == GRAB) return grab(d, seat);
    if (d->phase == PH_CALL && action == YIELD) { /* 讓莊: on clockwise */
        int next = (seat + 4) % 5;
        move_card(d, BJM, seat, next);
        if (++d->handed_on < ROUND_OF_HOLDERS) {
            d->holder = (int8_t)next;
            set_turn(d, next);
            return GO_ON;
        }
        return force(d);
    }
    if (action >= CALL_BASE) {
        call(d, seat, action - CALL_BASE);
        return GO_ON;
    }
    if (action == HAND_ON) { /* the emperor card on to the next seat */
        int next = (seat + 1) % 5, out[64];
        move_card(d, BJM, seat, next);
        d->handed_on++;
        d->holder = (int8_t)next;
        if (d->handed_on == ROUND_OF_HOLDERS && !opening_legal(d, next, out)) return END_VOID;
        set_turn(d, next);
        return GO_ON;
    }
    int guard = 0; /* KEEP: the guard card's holder is the guard (itself: solo) */
    while (!d->hand[guard][SJM]) guard++;
    d->emperor = (int8_t)seat;
    d->solo = guard == seat;
    d->partner = (int8_t)(d->solo ? -1 : guard);
    d->tell_kind = SJM;
    d->roles[seat] = R_EMPEROR;
    open_window(d, PH_DECLARE, -1);
    return GO_ON;
}

/* rules.py _act_in_opening(): play begins with the emperor's lead; a void deal is over */
static void act_before_play(Deal *d, int action) {
    int end = opening_act(d, action);
    if (end == END_PLAY) {
        d->phase = PH_PLAY;
        lead_from(d, d->emperor);
    } else if (end == END_VOID) {
        d->void_deal = 1;
        d->over = 1;
    }
}

/* A new deal of ``rules``' game with ``hands`` dealt (tribute paid): fields.py _new_deal(), then
 * rules.py _start_deal()'s holder and opening.begin(). -1 where no seat holds the marked joker. */
static int begin(Deal *d, const Deal *rules, int8_t hands[5][NK]) {
    memset(d, 0, sizeof *d);
    memcpy(d->hand, hands, 5 * NK);
    d->single = rules->single; d->yield_claim = rules->yield_claim;
    d->by_call = rules->by_call; d->other_role = rules->other_role;
    d->edition = rules->edition; d->hard_pass = rules->hard_pass;
    d->sink_rank = rules->sink_rank; d->held_rank = rules->held_rank;
    d->family = rules->family; d->grabbing = rules->grabbing; d->cede = rules->cede;
    d->calls_guard = rules->calls_guard; d->royalist_declares = rules->royalist_declares;
    d->solo_declares = rules->solo_declares;
    d->tell_kind = d->called = d->emperor = d->partner = d->owner = d->claimant = -1;
    d->stage = 1;
    memset(d->answers, -1, 5);
    derive(d);
    int holder = 0;
    while (holder < 5 && !d->hand[holder][BJM]) holder++;
    if (holder == 5) return -1;
    d->holder = d->first_holder = (int8_t)holder;
    if (d->family == 0 && d->grabbing) open_window(d, PH_GRAB, holder);
    else {
        d->phase = d->family == 0 ? PH_CALL : PH_EMPEROR_CARD;
        set_turn(d, holder);
    }
    return 0;
}

/* house.places(): the seats out but the sunk ones, the seats still in, then the sunk */
static void places(const Deal *d, int8_t *order) {
    int m = 0;
    for (int i = 0; i < d->n_out; i++) {
        int s = d->out[i], sunk = 0;
        for (int j = 0; j < d->n_sunk; j++) sunk |= d->sunk[j] == s;
        if (!sunk) order[m++] = (int8_t)s;
    }
    for (int s = 0; s < 5; s++)
        if (d->active[s]) order[m++] = (int8_t)s;
    for (int j = 0; j < d->n_sunk; j++) order[m++] = d->sunk[j];
}

/* ------------------------------------------------------------------ scoring (scoring.py) */

/* Scores are counted in twelfths of a point, where scoring.py's Fractions are exact: a side's
 * points shared in thirds (shandong), a lone emperor's paid in quarters by the four others. */
enum { TWELFTHS = 12, GRAB_POINTS = 40 };
static const int SHANDONG_PLACES[5] = {6, 3, 0, -3, -6}, SHANDONG_SOLO[5] = {16, 4, 0, -4, -16};
static const int JAPANESE_PLACES[5] = {2, 1, 0, -1, -2}, JAPANESE_SOLO[5] = {12, 0, -12, -12, -12};

static void alone(int emperor, int points, int *out) { /* the emperor's points, the others' */
    for (int s = 0; s < 5; s++) out[s] = s == emperor ? points * TWELFTHS : -points * TWELFTHS / 4;
}

/* scoring.py shandong() and japanese(), as the variant picks (variants.py score()) */
static void score(const Deal *d, const int8_t *order, int *out) {
    int place[5], e = d->emperor, p = d->partner;
    for (int i = 0; i < 5; i++) place[order[i]] = i;
    if (d->family == 0) {
        if (d->grabbed) return alone(e, place[e] == 0 ? GRAB_POINTS : -GRAB_POINTS, out);
        int factor = d->declared || d->solo_declared ? 2 : 1;
        if (p < 0) return alone(e, SHANDONG_SOLO[place[e]] * factor, out);
        int third = (SHANDONG_PLACES[place[e]] + SHANDONG_PLACES[place[p]]) * factor * TWELFTHS / 3;
        for (int s = 0; s < 5; s++) out[s] = s == e ? 2 * third : s == p ? third : -third;
        return;
    }
    int factor = d->rebellion ? 2 : 1;
    if (p < 0) return alone(e, JAPANESE_SOLO[place[e]] * factor * (d->solo_declared ? 2 : 1), out);
    int side = (JAPANESE_PLACES[place[e]] + JAPANESE_PLACES[place[p]]) * factor * TWELFTHS;
    for (int s = 0; s < 5; s++) out[s] = s == e ? 2 * side : s == p ? side : -side;
}

/* ------------------------------------------------------------------ Python's random */

/* Python's random.Random, so that the core draws what the Python engine draws from the same
 * state: MT19937 (the state as random.getstate() gives it: 624 words and the position),
 * getrandbits(k) for k <= 32 (the top k bits of a word) and _randbelow's rejection. */
enum { MT_N = 624, MT_M = 397 };
typedef struct { uint32_t mt[MT_N]; int index; } Twister;

static uint32_t next_word(Twister *g) {
    static const uint32_t twist[2] = {0u, 0x9908b0dfu};
    uint32_t *mt = g->mt, y;
    if (g->index >= MT_N) {
        for (int i = 0; i < MT_N; i++) {
            y = (mt[i] & 0x80000000u) | (mt[(i + 1) % MT_N] & 0x7fffffffu);
            mt[i] = mt[(i + MT_M) % MT_N] ^ (y >> 1) ^ twist[y & 1u];
        }
        g->index = 0;
    }
    y = mt[g->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
}

static int below(Twister *g, int n) { /* random.Random._randbelow(n), 0 < n < 2**31 */
    int k = 0;
    while (n >> k) k++;
    uint32_t r;
    do r = next_word(g) >> (32 - k); while (r >= (uint32_t)n);
    return (int)r;
}

static void shuffle(int16_t *items, int n, Twister *g) { /* random.shuffle */
    for (int i = n - 1; i > 0; i--) {
        int j = below(g, i + 1);
        int16_t item = items[i];
        items[i] = items[j];
        items[j] = item;
    }
}

/* ------------------------------------------------------------------ dealing (variants.py) */

enum { BLOCKS = 0, ROUND = 1, MAX_CARDS = 255 };

/* Shandong's deal(): the cards shuffled and cut in five equal blocks, then ``extra`` (the
 * marked big joker, -1: none) to a seat drawn at random. Japanese's: shuffled and dealt one
 * at a time from ``first``. Kind counts per seat. */
static void deal(int16_t *cards, int n, int style, int first, int extra, Twister *g,
                 int8_t hands[5][NK]) { /* 5 <= n <= MAX_CARDS */
    memset(hands, 0, 5 * NK);
    shuffle(cards, n, g);
    for (int i = 0; i < n; i++) {
        int seat = style == BLOCKS ? i / (n / 5) : (i + first) % 5;
        if (seat < 5) hands[seat][cards[i]]++; /* blocks: past 5 x n/5, no one's (as sliced) */
    }
    if (extra >= 0) hands[below(g, 5)][extra]++;
}

/* ------------------------------------------------------------------ tribute (tribute.py) */

enum { EMPEROR_SHARE = 2, SOLO_SHARE = 4, SHARE = 1, MAX_PAID = 5 * SOLO_SHARE };

/* tribute.py payments(): each seat that lost points gives its strongest naturals, one at a
 * time (the emperor 2, a lone emperor 4, anyone else 1); the pool is shuffled and each seat
 * that won takes as many as it would have given. (kind, giver, taker) rows; -1 when the
 * shares do not match (no deal's scores do that). */
static int payments(int8_t hands[5][NK], const int *scores, int emperor, int lone, Twister *g,
                    int paid[][3]) {
    int share[5], m = 0, n = 0;
    int16_t pool[MAX_PAID]; /* kind * 5 + giver */
    for (int s = 0; s < 5; s++)
        share[s] = s == emperor ? (lone ? SOLO_SHARE : EMPEROR_SHARE) : SHARE;
    for (int s = 0; s < 5; s++) {
        if (scores[s] >= 0) continue;
        int8_t left[52];
        memcpy(left, hands[s], 52);
        for (int i = 0; i < share[s]; i++) {
            int kind = 51;
            while (kind >= 0 && !left[kind]) kind--;
            if (kind < 0) return -1;
            left[kind]--;
            pool[m++] = (int16_t)(kind * 5 + s);
        }
    }
    shuffle(pool, m, g);
    for (int s = 0; s < 5; s++)
        for (int i = 0; scores[s] > 0 && i < share[s]; i++) {
            if (!m) return -1;
            m--;
            paid[n][0] = pool[m] / 5; paid[n][1] = pool[m] % 5; paid[n][2] = s; n++;
        }
    return m ? -1 : n;
}

/* ------------------------------------------------------------------ the policy (play.py) */

typedef struct {      /* hand.py Perspective, read from the state as playout.py does */
    const Deal *d;
    int me, telling, tell_slot, hidden_partner, joker_slot, partner, have_unseen;
    int8_t *counts;   /* the seat's slots: finishing_answer changes and restores them */
    int friend[5];
    int unseen[NS];
} Seen;

static int own_role(const Deal *d, int seat) { /* variants.py role() */
    if (seat == d->emperor) return d->partner < 0 ? R_SOLO : R_EMPEROR;
    return seat == d->partner ? R_PARTNER : d->other_role;
}

/* hand.py known_friends() and partner_of() */
static void sides(const Deal *d, int me, int *friend, int *partner_out) {
    int role = own_role(d, me), emperor = d->emperor;
    const int8_t *roles = d->roles;
    for (int s = 0; s < 5; s++) friend[s] = s == me;
    *partner_out = -1;
    if (role == R_SOLO) return;
    if (role == R_PARTNER) { friend[emperor] = 1; *partner_out = emperor; return; }
    int partner = -1;
    for (int s = 0; s < 5; s++)
        if (roles[s] == R_PARTNER) { partner = s; break; }
    if (role == R_EMPEROR) {
        int hidden = -1, n_hidden = 0;
        for (int s = 0; s < 5; s++)
            if (s != me && roles[s] != R_COMMONER) { hidden = s; n_hidden++; }
        if (partner < 0 && n_hidden == 1) partner = hidden;
        if (partner >= 0) friend[partner] = 1;
        for (int s = 0; s < 5; s++)
            if (friend[s] && s != me) { *partner_out = s; break; }
        return;
    }
    int alone = d->grabbed || roles[emperor] == R_SOLO;
    for (int s = 0; s < 5; s++)
        if (s != me && s != emperor)
            friend[s] = roles[s] == R_COMMONER || alone || (partner >= 0 && partner != s);
}

static void perspective(Seen *k, Deal *d, int seat) {
    k->d = d;
    k->me = seat;
    k->counts = d->slots[seat];
    k->telling = telling_of(d, seat, &k->tell_slot);
    k->hidden_partner = seat == d->partner && !d->roles[seat];
    k->joker_slot = -1;
    if (k->hidden_partner && d->called >= 0)
        k->joker_slot = d->called == SJ ? SMALL : d->called == BJ ? BIG : -1;
    sides(d, seat, k->friend, &k->partner);
    k->have_unseen = 0;
}

static const int *unseen(Seen *k) { /* what the other seats hold, all together */
    if (!k->have_unseen) {
        memset(k->unseen, 0, sizeof k->unseen);
        for (int s = 0; s < 5; s++)
            if (s != k->me)
                for (int i = 0; i < NS; i++) k->unseen[i] += k->d->slots[s][i];
        k->have_unseen = 1;
    }
    return k->unseen;
}

static int size_of(const Seen *k) { return k->d->size[k->me]; }

static int min_telling(const Seen *k, int r, int n, int x) {
    if (k->tell_slot == SMALL) return imax(0, x - (k->counts[SMALL] - k->telling));
    return (k->tell_slot == r && n) ? imax(0, n - (k->counts[r] - k->telling)) : 0;
}

static int action_of(const Seen *k, int r, int n, int x, int y) {
    return enc(n ? r : NO_RANK, n, x, y, min_telling(k, r, n, x));
}

static int reveals(const Seen *k, int r, int n, int x, int y) {
    if (!k->hidden_partner) return 0;
    return min_telling(k, r, n, x) > 0 || (k->joker_slot == SMALL && x > 0) ||
           (k->joker_slot == BIG && y > 0);
}

static int can_carry(const Seen *k, int n) { return n != 1 || k->d->single; }

static int safe(Seen *k, int r, int n, int x, int y) {
    if (y) return 1;
    const int *u = unseen(k);
    int big = u[BIG], small = u[SMALL];
    if (big < x) return 1;
    if (n == 0) return big < x;
    int most = 0;
    for (int i = r + 1; i < 13; i++) most = imax(most, u[i]);
    return most + small + big < n + x;
}

typedef struct { int r, n, x, y; } Shape;

/* finishing_plan(): 1 and the first set of a sure way out, 2 for an empty plan (an empty hand:
 * Python's [], falsy to lead() but a plan to finishing_answer()), 0 when there is none */
static int finishing_plan(Seen *k, Shape *first) {
    int8_t *c = k->counts;
    int groups[13], ng = 0, unsafe[13], nu = 0;
    for (int r = 0; r < 13; r++) if (c[r]) groups[ng++] = r;
    for (int i = 0; i < ng; i++)
        if (!safe(k, groups[i], c[groups[i]], 0, 0)) unsafe[nu++] = groups[i];
    int sink = k->d->sink_rank, held = k->d->held_rank, last = -1;
    if (held >= 0 && c[held]) last = held;
    else
        for (int i = 0; i < nu; i++) { /* min by (r == sink, can carry jokers, r) */
            int r = unsafe[i];
            if (last < 0) { last = r; continue; }
            int a0 = r == sink, a1 = can_carry(k, c[r]);
            int b0 = last == sink, b1 = can_carry(k, c[last]);
            if (a0 < b0 || (a0 == b0 && (a1 < b1 || (a1 == b1 && r < last)))) last = r;
        }
    int needing[13], nn = 0;
    for (int i = 0; i < nu; i++) if (unsafe[i] != last) needing[nn++] = unsafe[i];
    int big = c[BIG], small = c[SMALL];
    if (nn > big) return 0;
    for (int i = 0; i < nn; i++) if (!can_carry(k, c[needing[i]])) return 0;
    big -= nn;
    Shape sets[16];
    int m = 0;
    for (int i = 0; i < ng; i++) {
        int r = groups[i], is_unsafe = 0;
        for (int j = 0; j < nu; j++) is_unsafe |= unsafe[j] == r;
        if (!is_unsafe && r != last) sets[m++] = (Shape){r, c[r], 0, 0};
    }
    for (int i = 0; i < nn; i++) sets[m++] = (Shape){needing[i], c[needing[i]], 0, 1};
    if (last >= 0 && can_carry(k, c[last])) {
        sets[m++] = (Shape){last, c[last], small, big};
        *first = sets[0];
        return 1;
    }
    if (big || small) {
        int carrier = -1;
        for (int i = 0; i < m; i++) if (can_carry(k, sets[i].n)) { carrier = i; break; }
        if (carrier >= 0) { sets[carrier].x += small; sets[carrier].y += big; }
        else if (big || safe(k, NO_RANK, 0, small, 0)) sets[m++] = (Shape){NO_RANK, 0, small, big};
        else return 0;
    }
    if (last >= 0) sets[m++] = (Shape){last, c[last], 0, 0};
    if (!m) return 2;
    *first = sets[0];
    return 1;
}

static int whole_hand(Seen *k, Shape *s) {
    int8_t *c = k->counts;
    int small = c[SMALL], big = c[BIG], r = -1, ng = 0;
    for (int i = 0; i < 13; i++) if (c[i]) { if (r < 0) r = i; ng++; }
    if (!ng) { *s = (Shape){NO_RANK, 0, small, big}; return 1; }
    if (ng > 1) return 0;
    if (!can_carry(k, c[r]) && small + big) return 0;
    *s = (Shape){r, c[r], small, big};
    return 1;
}

static int lead_policy(Seen *k) { /* lead() */
    Shape s;
    int8_t *c = k->counts;
    if (whole_hand(k, &s)) return action_of(k, s.r, s.n, s.x, s.y);
    if (size_of(k) <= ENDGAME && finishing_plan(k, &s) == 1) return action_of(k, s.r, s.n, s.x, s.y);
    const int8_t *sizes = k->d->size;
    int held = k->d->held_rank;
    for (int p = 0; p < 5; p++) { /* helping_lead(): the first such partner */
        if (p == k->me || !k->friend[p] || !(sizes[p] > 0 && sizes[p] <= 2)) continue;
        int want = sizes[p];
        for (int r = 0; r < 13; r++)
            if (c[r] && r != held && c[r] >= want && r < CONTROL) return action_of(k, r, want, 0, 0);
        break;
    }
    int best = -1;
    double best_penalty = 0;
    for (int r = 0; r < 13; r++) {
        if (!c[r] || r == held) continue;
        double penalty = (double)r; /* lead_penalty() */
        if (r >= CONTROL) penalty += 10;
        if (k->hidden_partner && reveals(k, r, c[r], 0, 0)) penalty += 4;
        int danger = 0; /* danger_sizes() */
        for (int s2 = 0; s2 < 5; s2++)
            danger |= !k->friend[s2] && sizes[s2] > 0 && sizes[s2] <= 5 && sizes[s2] == c[r];
        if (danger && !safe(k, r, c[r], 0, 0)) penalty += 20;
        if (best < 0 || penalty < best_penalty) { best = r; best_penalty = penalty; }
    }
    if (best < 0) return action_of(k, NO_RANK, 0, c[SMALL], c[BIG]);
    return action_of(k, best, c[best], 0, 0);
}

static double set_cost(Seen *k, int r, int n, int x, int y) {
    double cost = x * 4.0 + y * 6.0;
    if (n) {
        int held = k->counts[r];
        if (n == held) cost += RANK_COST[r] - 2.5;
        else cost += RANK_COST[r] * n / held + (r < CONTROL ? 1.0 : 0.3);
    }
    if (k->hidden_partner && reveals(k, r, n, x, y)) cost += 1.5;
    return cost;
}

static int cannot_beat(const int8_t *c, const int8_t *table) {
    int r = table[0], n = table[1], x = table[2], y = table[3], big = c[BIG], most = 0;
    for (int i = r + 1; i < 13; i++) most = imax(most, c[i]);
    return y || big < x || big + c[SMALL] + most < n + x;
}

static int beating(Seen *k, int rb, int nb, int xb, Shape *out) { /* beating() */
    int8_t *c = k->counts;
    int size = nb + xb, small = c[SMALL], big = c[BIG], m = 0, tell = k->tell_slot;
    for (int y = xb; y <= imin(size, big); y++)
        for (int x = 0; x <= imin(size - y, small); x++) {
            int n = size - x - y;
            if (n == 0) { out[m++] = (Shape){NO_RANK, 0, x, y}; continue; }
            if (!(nb && (x + y == 0 || can_carry(k, n)))) continue;
            if (tell > rb && tell < 13 && c[tell] >= n) out[m++] = (Shape){tell, n, x, y};
            for (int r = rb + 1; r < 13; r++)
                if (c[r] >= n && r != tell) out[m++] = (Shape){r, n, x, y};
        }
    return m;
}

static int finishing_answer(Seen *k, const Shape *shapes, int m, Shape *found) {
    int8_t *c = k->counts;
    unseen(k);
    for (int i = 0; i < m; i++) {
        Shape s = shapes[i];
        if (!safe(k, s.r, s.n, s.x, s.y)) continue;
        c[SMALL] -= (int8_t)s.x; c[BIG] -= (int8_t)s.y;
        if (s.n) c[s.r] -= (int8_t)s.n;
        Shape first;
        int ok = finishing_plan(k, &first);
        c[SMALL] += (int8_t)s.x; c[BIG] += (int8_t)s.y;
        if (s.n) c[s.r] += (int8_t)s.n;
        if (ok) { *found = s; return 1; }
    }
    return 0;
}

static int answer_policy(Seen *k, int may_yield, int may_claim) { /* answer_beatable() */
    const Deal *d = k->d;
    int rb = d->table[0], nb = d->table[1], xb = d->table[2], owner = d->owner;
    int no_play = may_claim ? CLAIM : PASS;
    Shape shapes[512], s;
    int m = beating(k, rb, nb, xb, shapes);
    if (!m) return no_play;
    if (size_of(k) == nb + xb) return action_of(k, shapes[0].r, shapes[0].n, shapes[0].x, shapes[0].y);
    if (size_of(k) <= ENDGAME && finishing_answer(k, shapes, m, &s))
        return action_of(k, s.r, s.n, s.x, s.y);
    if (owner == k->partner) { /* stopping_answer() */
        int wanted = nb + xb, threat = 0;
        for (int p = 0; p < 5; p++) threat |= !k->friend[p] && d->size[p] == wanted;
        if (!threat) return no_play;
        int best = -1;
        double cost = 0;
        for (int i = 0; i < m; i++) {
            if (!safe(k, shapes[i].r, shapes[i].n, shapes[i].x, shapes[i].y)) continue;
            double c = set_cost(k, shapes[i].r, shapes[i].n, shapes[i].x, shapes[i].y);
            if (best < 0 || c < cost) { best = i; cost = c; }
        }
        if (best < 0) return no_play;
        return action_of(k, shapes[best].r, shapes[best].n, shapes[best].x, shapes[best].y);
    }
    int best = 0;
    double cost = set_cost(k, shapes[0].r, shapes[0].n, shapes[0].x, shapes[0].y);
    for (int i = 1; i < m; i++) {
        double c = set_cost(k, shapes[i].r, shapes[i].n, shapes[i].x, shapes[i].y);
        if (c < cost) { best = i; cost = c; }
    }
    if (may_claim && cost > 0) return CLAIM;
    double limit;
    if (k->friend[owner]) limit = 1.0;
    else { /* beat_limit() */
        limit = 2.0;
        int owner_size = d->size[owner];
        if (owner_size > 0 && owner_size <= 3) limit += 5.0;
        else if (owner_size > 0 && owner_size <= 8) limit += 2.0;
        if (size_of(k) <= 8) limit += 1.0;
        if (d->stage == 2) limit += 1.0;
    }
    if (cost <= limit) return action_of(k, shapes[best].r, shapes[best].n, shapes[best].x, shapes[best].y);
    if (may_yield && cost <= limit + 1.0) return YIELD;
    return PASS;
}

/* playout.py choose(): the policy's action for the pending seat */
static int choose(Deal *d) {
    Seen k;
    int seat = d->pending;
    if (!d->has_table) {
        perspective(&k, d, seat);
        return lead_policy(&k);
    }
    int words[3], nw = answer_words(d, words), may_claim = nw == 3, may_yield = nw >= 2;
    if (cannot_beat(d->slots[seat], d->table)) return may_claim ? CLAIM : PASS;
    perspective(&k, d, seat);
    return answer_policy(&k, may_yield, may_claim);
}

/* playout.py settled(): the seats still in are all on one side */
static int settled(const Deal *d) {
    if (d->n_sunk) return 0;
    if (d->grabbed) return d->n_out > 0;
    int side[2] = {0, 0};
    for (int s = 0; s < 5; s++)
        if (d->active[s]) side[s == d->emperor || s == d->partner] = 1;
    return !(side[0] && side[1]);
}

/* playout.py play_out(): the policy for every seat until the scores are settled */
static long play_out(Deal *d) {
    long decisions = 0;
    int outs = d->n_out;
    while (!d->over) {
        if (decisions == MAX_DECISIONS) return -1;
        apply(d, choose(d));
        decisions++;
        if (d->n_out != outs) {
            outs = d->n_out;
            if (!d->over && settled(d)) break;
        }
    }
    return decisions;
}

/* ------------------------------------------------------------------ the Python functions */

/* A guard for packed deals that pass the checks yet are no deal the rules reach: every real
 * deal ends within a few thousand decisions (a set leaves each trick, 216 cards at most). */
static PyObject *endless(void) {
    return PyErr_Format(PyExc_ValueError,
                        "packed deal: a seat without a legal action, or play past %d decisions",
                        MAX_DECISIONS);
}

static int read_deal(PyObject *packed, Deal *d) {
    char *buffer;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(packed, &buffer, &len) < 0) return -1;
    return unpack(d, (const int8_t *)buffer, len);
}

/* ``seat`` (-1: the first pending) to act: one the deal waits on (a window waits on several) */
static int acting(Deal *d, int seat) {
    if (seat < 0) return 0;
    int window = d->phase == PH_GRAB || d->phase == PH_DECLARE;
    if (d->over || seat > 4 || (window ? !d->asked[seat] : seat != d->pending)) {
        PyErr_Format(PyExc_ValueError, "seat %d is not to act in this deal", seat);
        return -1;
    }
    d->pending = (int8_t)seat;
    return 0;
}

static int is_legal(const Deal *d, int action) {
    int ids[MAXLEGAL], m = legal(d, ids);
    for (int i = 0; i < m; i++) if (ids[i] == action) return 1;
    return 0;
}

static PyObject *py_legal(PyObject *self, PyObject *args) {
    PyObject *packed;
    Deal d;
    int ids[MAXLEGAL], seat = -1;
    if (!PyArg_ParseTuple(args, "S|i", &packed, &seat) || read_deal(packed, &d) < 0 ||
        acting(&d, seat) < 0)
        return NULL;
    int m = legal(&d, ids);
    PyObject *out = PyList_New(m);
    if (!out) return NULL;
    for (int i = 0; i < m; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(ids[i]));
    return out;
}

static PyObject *py_step(PyObject *self, PyObject *args) {
    PyObject *packed;
    int action, seat = -1;
    Deal d;
    int8_t out[P_SIZE];
    if (!PyArg_ParseTuple(args, "Si|i", &packed, &action, &seat) || read_deal(packed, &d) < 0 ||
        acting(&d, seat) < 0)
        return NULL;
    if (!is_legal(&d, action)) {
        PyErr_Format(PyExc_ValueError, "action %d is not legal in this deal", action);
        return NULL;
    }
    apply(&d, action);
    pack(&d, out);
    return PyBytes_FromStringAndSize((const char *)out, P_SIZE);
}

static PyObject *py_choose(PyObject *self, PyObject *args) {
    PyObject *packed;
    Deal d;
    if (!PyArg_ParseTuple(args, "S", &packed) || read_deal(packed, &d) < 0) return NULL;
    if (d.over || d.phase != PH_PLAY)
        return PyErr_Format(PyExc_ValueError, "the policy plays a deal in play, not over");
    return PyLong_FromLong(choose(&d));
}

/* (places, scores in twelfths) were the deal to end now */
static PyObject *outcome(const Deal *d) {
    int8_t order[5];
    int twelfths[5];
    places(d, order);
    score(d, order, twelfths);
    return Py_BuildValue("(iiiii)(iiiii)", order[0], order[1], order[2], order[3], order[4],
                         twelfths[0], twelfths[1], twelfths[2], twelfths[3], twelfths[4]);
}

static PyObject *py_outcome(PyObject *self, PyObject *args) {
    PyObject *packed;
    Deal d;
    if (!PyArg_ParseTuple(args, "S", &packed) || read_deal(packed, &d) < 0) return NULL;
    if (d.phase != PH_PLAY) return PyErr_Format(PyExc_ValueError, "a deal before play has no outcome");
    return outcome(&d);
}

static PyObject *py_play_out(PyObject *self, PyObject *args) {
    PyObject *packed;
    int first = -1;
    Deal d;
    if (!PyArg_ParseTuple(args, "S|i", &packed, &first) || read_deal(packed, &d) < 0) return NULL;
    if (d.phase != PH_PLAY)
        return PyErr_Format(PyExc_ValueError, "the policy plays out a deal in play");
    if (first >= 0) {
        if (!is_legal(&d, first)) {
            PyErr_Format(PyExc_ValueError, "action %d is not legal in this deal", first);
            return NULL;
        }
        apply(&d, first);
    }
    long decisions = play_out(&d);
    if (decisions < 0) return endless();
    PyObject *found = outcome(&d);
    if (!found) return NULL;
    PyObject *result =
        Py_BuildValue("(OOl)", PyTuple_GET_ITEM(found, 0), PyTuple_GET_ITEM(found, 1), decisions);
    Py_DECREF(found);
    return result;
}

static inline uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static PyObject *py_random_playouts(PyObject *self, PyObject *args) {
    PyObject *packed;
    unsigned long long seed;
    long times;
    Deal start, d;
    int ids[MAXLEGAL];
    if (!PyArg_ParseTuple(args, "SKl", &packed, &seed, &times) || read_deal(packed, &start) < 0)
        return NULL;
    long decisions = 0;
    uint64_t rng = seed;
    for (long i = 0; i < times; i++) {
        d = start;
        for (long made = 0; !d.over; made++) {
            int m = legal(&d, ids); /* never 0: the seat to act holds cards (consistent) */
            if (made == MAX_DECISIONS || !m) return endless();
            apply(&d, ids[splitmix(&rng) % (uint64_t)m]);
            decisions++;
        }
    }
    return PyLong_FromLong(decisions);
}

/* random.getstate()[1] (624 words and the position) in and out */
static int read_twister(PyObject *state, Twister *g) {
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != MT_N + 1) {
        PyErr_SetString(PyExc_ValueError, "a random state is random.getstate()[1]: 625 ints");
        return -1;
    }
    for (int i = 0; i <= MT_N; i++) {
        unsigned long word = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(state, i));
        if (PyErr_Occurred()) return -1;
        if (i < MT_N) g->mt[i] = (uint32_t)word;
        else g->index = word > MT_N ? MT_N : (int)word;
    }
    return 0;
}

static PyObject *twister_words(const Twister *g) {
    PyObject *words = PyTuple_New(MT_N + 1);
    if (!words) return NULL;
    for (int i = 0; i < MT_N; i++) PyTuple_SET_ITEM(words, i, PyLong_FromUnsignedLong(g->mt[i]));
    PyTuple_SET_ITEM(words, MT_N, PyLong_FromLong(g->index));
    return words;
}

/* deal(cards, style, first, extra, rng_state) -> (hands as 5 x NK counts, rng_state) */
static PyObject *py_deal(PyObject *self, PyObject *args) {
    PyObject *cards, *state;
    int style, first, extra;
    Twister g;
    if (!PyArg_ParseTuple(args, "SiiiO", &cards, &style, &first, &extra, &state) ||
        read_twister(state, &g) < 0)
        return NULL;
    Py_ssize_t n = PyBytes_GET_SIZE(cards);
    const int8_t *kinds = (const int8_t *)PyBytes_AS_STRING(cards);
    if (n < 5 || n > MAX_CARDS || (style != BLOCKS && style != ROUND) || first < 0 || first > 4 ||
        extra < -1 || extra >= NK)
        return PyErr_Format(PyExc_ValueError,
                            "deal takes 5..%d cards, a style (0, 1), a seat and a card or -1",
                            MAX_CARDS);
    int16_t shuffled[MAX_CARDS];
    int copies[NK] = {0};
    for (Py_ssize_t i = 0; i < n; i++) {
        if (kinds[i] < 0 || kinds[i] >= NK || ++copies[kinds[i]] + (kinds[i] == extra) > 4)
            return PyErr_Format(PyExc_ValueError, "card %d is no kind, or more than 4 copies of one",
                                kinds[i]);
        shuffled[i] = kinds[i];
    }
    int8_t hands[5][NK];
    deal(shuffled, (int)n, style, first, extra, &g, hands);
    return Py_BuildValue("(y#N)", (const char *)hands, (Py_ssize_t)(5 * NK), twister_words(&g));
}

/* tribute(hands, scores, emperor, lone, rng_state) -> (payments, rng_state) or None */
static PyObject *py_tribute(PyObject *self, PyObject *args) {
    PyObject *packed_hands, *state;
    int scores[5], emperor, lone;
    Twister g;
    if (!PyArg_ParseTuple(args, "S(iiiii)ipO", &packed_hands, &scores[0], &scores[1], &scores[2],
                          &scores[3], &scores[4], &emperor, &lone, &state))
        return NULL;
    int8_t hands[5][NK];
    if (PyBytes_GET_SIZE(packed_hands) != 5 * NK || emperor < 0 || emperor > 4)
        return PyErr_Format(PyExc_ValueError, "tribute takes 5 x %d card counts and a seat", NK);
    memcpy(hands, PyBytes_AS_STRING(packed_hands), 5 * NK);
    if (!in_range((const int8_t *)hands, 0, 5 * NK, 0, 4) || read_twister(state, &g) < 0)
        return NULL;
    if (!(scores[0] || scores[1] || scores[2] || scores[3] || scores[4])) Py_RETURN_NONE;
    int paid[MAX_PAID][3], n = payments(hands, scores, emperor, lone, &g, paid);
    if (n < 0) return PyErr_Format(PyExc_ValueError, "the losers' and winners' shares differ");
    PyObject *rows = PyTuple_New(n);
    if (!rows) return NULL;
    for (int i = 0; i < n; i++)
        PyTuple_SET_ITEM(rows, i, Py_BuildValue("(iii)", paid[i][0], paid[i][1], paid[i][2]));
    return Py_BuildValue("(NN)", rows, twister_words(&g));
}

static int begin_checked(Deal *d, const Deal *rules, int8_t hands[5][NK]) {
    if (begin(d, rules, hands) < 0) {
        PyErr_SetString(PyExc_ValueError, "no seat was dealt the marked big joker");
        return -1;
    }
    return consistent(d);
}

/* begin(packed, hands) -> the packed deal as dealt, the game's rules read from ``packed`` */
static PyObject *py_begin(PyObject *self, PyObject *args) {
    PyObject *packed, *dealt;
    Deal rules, d;
    int8_t hands[5][NK], out[P_SIZE];
    if (!PyArg_ParseTuple(args, "SS", &packed, &dealt) || read_deal(packed, &rules) < 0) return NULL;
    if (PyBytes_GET_SIZE(dealt) != 5 * NK)
        return PyErr_Format(PyExc_ValueError, "hands are 5 x %d card counts", NK);
    memcpy(hands, PyBytes_AS_STRING(dealt), 5 * NK);
    if (!in_range((const int8_t *)hands, 0, 5 * NK, 0, 4) || begin_checked(&d, &rules, hands) < 0)
        return NULL;
    pack(&d, out);
    return PyBytes_FromStringAndSize((const char *)out, P_SIZE);
}

static void seed_twister(Twister *g, uint32_t seed) { /* MT19937's init_genrand */
    g->mt[0] = seed;
    for (int i = 1; i < MT_N; i++)
        g->mt[i] = 1812433253u * (g->mt[i - 1] ^ (g->mt[i - 1] >> 30)) + (uint32_t)i;
    g->index = MT_N;
}

/* random_deals(packed, seed, times) -> decisions: whole deals of ``packed``'s game (its deck:
 * every card its hands hold), dealt, opened and played to their end by random legal actions */
static PyObject *py_random_deals(PyObject *self, PyObject *args) {
    PyObject *packed;
    unsigned long seed;
    long times;
    Deal rules, d;
    int ids[MAXLEGAL], copies[NK] = {0};
    int16_t deck[MAX_CARDS], cards[MAX_CARDS];
    if (!PyArg_ParseTuple(args, "Skl", &packed, &seed, &times) || read_deal(packed, &rules) < 0)
        return NULL;
    int n = 0, style = rules.family == 0 ? BLOCKS : ROUND, extra = style == BLOCKS ? BJM : -1;
    for (int k = 0; k < NK; k++) {
        for (int s = 0; s < 5; s++) copies[k] += rules.hand[s][k];
        if (copies[k] > 4 || n + copies[k] > MAX_CARDS)
            return PyErr_Format(PyExc_ValueError, "more than 4 copies of card %d, or too many", k);
        for (int c = k == extra ? 1 : 0; c < copies[k]; c++) deck[n++] = (int16_t)k;
    }
    if (n < 5 || (extra >= 0 && !copies[extra]))
        return PyErr_Format(PyExc_ValueError, "a deck of %d cards deals no game", n);
    Twister g;
    seed_twister(&g, (uint32_t)seed);
    long decisions = 0;
    for (long i = 0; i < times; i++) {
        int8_t hands[5][NK];
        memcpy(cards, deck, sizeof(int16_t) * (size_t)n);
        deal(cards, n, style, (int)(i % 5), extra, &g, hands);
        if (begin_checked(&d, &rules, hands) < 0) return NULL;
        for (long made = 0; !d.over; made++) {
            int m = legal(&d, ids);
            if (made == MAX_DECISIONS || !m) return endless();
            apply(&d, ids[below(&g, m)]);
            decisions++;
        }
    }
    return PyLong_FromLong(decisions);
}

/* ------------------------------------------------------------------ the vector environment
 *
 * yamen/games/baohuang/batch.py steps many deals at once through deal_steps(): each game's
 * packed deal, its memory of the deal's sets (what a packed deal forgets and a seat's
 * observation reads: the sets played, the trick's moves) and five base observations (one per
 * seat, the Python encoder's at the deal's first decision: the blocks a deal does not change,
 * the match's) live in the caller's buffers; the memory also holds the tribute each seat gave
 * and received, whose block counts the called card once one is called. encoding.py's _vector() is the
 * reference; every other block is written here over the base's copy, to the same bytes
 * (lockstep.py check_observations compares every decision). The layout's offsets are
 * encoding.py's LAYOUT (OBSERVATION_OFFSETS; tests/rl check them). */

enum { BLOCK = 18, TOLD = 15, MARKED_SMALL = 16, MARKED_BIG = 17, RECENT = 15, MOVES = 5, WORDS = 4 };
enum {
    O_HAND = 0, O_UNSEEN = O_HAND + BLOCK, O_PLAYED = O_UNSEEN + BLOCK,
    O_TABLE_CARDS = O_PLAYED + 5 * BLOCK, O_TRIBUTE = O_TABLE_CARDS + BLOCK,
    O_HISTORY_CARDS = O_TRIBUTE + 2 * BLOCK, O_HISTORY_SEATS = O_HISTORY_CARDS + RECENT * BLOCK,
    O_TRICK = O_HISTORY_SEATS + RECENT * 5, O_HAND_SIZES = O_TRICK + MOVES * (5 + WORDS),
    O_TABLE_OWNER = O_HAND_SIZES + 5, O_SECOND_CIRCLE = O_TABLE_OWNER + 5,
    O_YIELDERS = O_SECOND_CIRCLE + 1, O_CLAIMANT = O_YIELDERS + 5, O_TO_ASK = O_CLAIMANT + 5,
    O_EMPEROR = O_TO_ASK + 5, O_PUBLIC_ROLES = O_EMPEROR + 5, O_OWN_ROLE = O_PUBLIC_ROLES + 20,
    O_DECLARED = O_OWN_ROLE + 5, O_GRABBED = O_DECLARED + 5, O_MARKED_HOLDER = O_GRABBED + 1,
    O_MARKED_JOKER = O_MARKED_HOLDER + 5, O_CALLED_CARD = O_MARKED_JOKER + 5,
    O_ANSWERED = O_CALLED_CARD + NS + 4, O_PENDING = O_ANSWERED + 5, O_OUT = O_PENDING + 5,
    O_PHASE = O_OUT + 5, PHASES = 7, O_VARIANT = O_PHASE + PHASES
};
/* the blocks a deal changes (the tribute's too: its called card is counted once called), as
 * [from, to) ranges: zeroed, then written (the rest, the match's: the base's) */
static const int DEAL_BLOCKS[][2] = {{O_HAND, O_VARIANT}};
/* a public role's code (R_*) as its column in a seat's four (encoding.py ROLE_INDEX) */
static const int ROLE_COLUMN[6] = {-1, 0, 2, 1, 3, 3};
/* a phase's code (PH_*) as its index in phases.py's Phase (encoding.py PHASE_INDEX) */
static const int PHASE_COLUMN[6] = {5, 0, 1, 2, 3, 4};

enum { LOG = 2048 }; /* more actions than a deal takes (216 cards, a few answers a set) */
typedef struct {                       /* encoding.py PlayedCache, and the trick's moves */
    int16_t sums[5][BLOCK], total[BLOCK]; /* per seat, all seats: every set of the deal */
    int8_t recent[RECENT][BLOCK], recent_seat[RECENT]; /* set k at k % RECENT */
    int32_t sets, moves;               /* sets this deal; moves in the trick in progress */
    int8_t move_seat[MOVES], move_word[MOVES]; /* move k at k % MOVES: seat, TRICK_WORDS index */
    int32_t logged;                    /* the deal's actions so far, the first LOG of them in */
    int16_t log[LOG];                  /* order: so that Python can replay the deal (batch.py) */
    int8_t tribute[5][2][NK];          /* per seat, the kinds it gave and received (batch.py) */
} Memory;

/* A memory only this module writes; checked anyway, so that no buffer can index past it. */
static int memory_ok(const Memory *m) {
    if (m->sets < 0 || m->moves < 0 || m->logged < 0 || m->sets > MAX_DECISIONS ||
        m->moves > MAX_DECISIONS || m->logged > MAX_DECISIONS)
        return 0;
    for (int i = 0; i < RECENT; i++) if (m->recent_seat[i] < 0 || m->recent_seat[i] > 4) return 0;
    for (int i = 0; i < MOVES; i++)
        if (m->move_seat[i] < 0 || m->move_seat[i] > 4 || m->move_word[i] < 0 ||
            m->move_word[i] >= WORDS)
            return 0;
    return 1;
}

static int natural_called(const Deal *d) { return d->called >= 0 && d->called < 52 ? d->called : -1; }

/* apply(), remembering the action, a set played (its cards counted as card_counts() counts
 * them) and the trick's moves (rules.py: a move joins the trick; a new lead empties it) */
static void apply_remembered(Deal *d, Memory *m, int action) {
    int seat = d->pending, called = natural_called(d), in_play = d->phase == PH_PLAY;
    int8_t before[NK];
    memcpy(before, d->hand[seat], NK);
    apply(d, action);
    if (m->logged < LOG) m->log[m->logged] = (int16_t)action;
    m->logged++;
    if (in_play && action >= PLAY_BASE) {
        int8_t *row = m->recent[m->sets % RECENT];
        memset(row, 0, BLOCK);
        for (int k = 0; k < NK; k++) {
            int q = before[k] - d->hand[seat][k];
            if (!q) continue;
            row[slot_of(k)] += (int8_t)q;
            if (k == called) row[TOLD] += (int8_t)q;
            else if (k == SJM) row[MARKED_SMALL] += (int8_t)q;
            else if (k == BJM) row[MARKED_BIG] += (int8_t)q;
        }
        for (int j = 0; j < BLOCK; j++) {
            m->sums[seat][j] += row[j];
            m->total[j] += row[j];
        }
        m->recent_seat[m->sets % RECENT] = (int8_t)seat;
        m->sets++;
    }
    if (d->has_table) {
        m->move_seat[m->moves % MOVES] = (int8_t)seat;
        m->move_word[m->moves % MOVES] = (int8_t)(action >= PLAY_BASE ? 0 : action + 1);
        m->moves++;
    } else {
        m->moves = 0;
    }
}

static void put_block(float *out, const int *counts) { /* scaled as BLOCK_SCALE scales */
    for (int j = 0; j < BLOCK; j++)
        out[j] = (float)(counts[j] * (j < 13 ? 1.0 / 16 : j < MARKED_SMALL ? 0.25 : 1.0));
}

/* encoding.py card_counts() of cards given as kind counts: a block not yet scaled */
static void kind_block(const int8_t *kinds, int called, int *block) {
    memset(block, 0, sizeof(int) * BLOCK);
    for (int k = 0; k < NK; k++) {
        if (!kinds[k]) continue;
        block[slot_of(k)] += kinds[k];
        if (k == called) block[TOLD] += kinds[k];
        else if (k == SJM) block[MARKED_SMALL] += kinds[k];
        else if (k == BJM) block[MARKED_BIG] += kinds[k];
    }
}

static void put_row(float *out, const int8_t *row) {
    int counts[BLOCK];
    for (int j = 0; j < BLOCK; j++) counts[j] = row[j];
    put_block(out, counts);
}

/* fields.py own_role() as a role code, 0 before there is an emperor */
static int role_known(const Deal *d, int seat) {
    if (d->emperor < 0) return R_NONE;
    if (seat == d->emperor) return d->solo || d->grabbed ? R_SOLO : R_EMPEROR;
    return seat == d->partner ? R_PARTNER : d->other_role;
}

/* encoding.py _vector() for the seat to act, over its base observation */
static void encode(const Deal *d, const Memory *m, const int8_t *deck, const float *base,
                   int size, float *out) {
    int me = d->pending, called = natural_called(d), block[BLOCK], unseen[BLOCK];
    int window = d->phase == PH_GRAB || d->phase == PH_DECLARE;
#define REL(s) (((s) - me + 5) % 5)
    memcpy(out, base, sizeof(float) * (size_t)size);
    for (size_t b = 0; b < sizeof DEAL_BLOCKS / sizeof DEAL_BLOCKS[0]; b++)
        memset(out + DEAL_BLOCKS[b][0], 0, sizeof(float) * (size_t)(DEAL_BLOCKS[b][1] - DEAL_BLOCKS[b][0]));
    for (int j = 0; j < NS; j++) block[j] = d->slots[me][j];
    block[TOLD] = called >= 0 ? d->hand[me][called] : 0;
    block[MARKED_SMALL] = d->hand[me][SJM];
    block[MARKED_BIG] = d->hand[me][BJM];
    put_block(out + O_HAND, block);
    for (int j = 0; j < BLOCK; j++) unseen[j] = deck[j] - m->total[j] - block[j];
    put_block(out + O_UNSEEN, unseen);
    for (int i = 0; i < 5; i++) {
        int s = (me + i) % 5;
        for (int j = 0; j < BLOCK; j++) block[j] = m->sums[s][j];
        put_block(out + O_PLAYED + i * BLOCK, block);
        out[O_HAND_SIZES + i] = (float)(d->size[s] / 50.0 < 1.0 ? d->size[s] / 50.0 : 1.0);
    }
    for (int given = 0; given < 2; given++) { /* gave, received: zeros where none was paid */
        kind_block(m->tribute[me][given], called, block);
        put_block(out + O_TRIBUTE + given * BLOCK, block);
    }
    if (d->has_table) {
        if (m->sets > 0) put_row(out + O_TABLE_CARDS, m->recent[(m->sets - 1) % RECENT]); /* the last set */
        out[O_TABLE_OWNER + REL(d->owner)] = 1.0f;
        if (d->stage == 2) out[O_SECOND_CIRCLE] = 1.0f;
        for (int i = 0; i < d->n_yield; i++) out[O_YIELDERS + REL(d->yielders[i])] = 1.0f;
        if (d->claimant >= 0) out[O_CLAIMANT + REL(d->claimant)] = 1.0f;
        for (int i = 0; i < d->n_ask; i++) out[O_TO_ASK + REL(d->to_ask[i])] = 1.0f;
    }
    for (int i = 0; i < imin(m->sets, RECENT); i++) { /* the most recent first */
        int at = (m->sets - 1 - i) % RECENT;
        put_row(out + O_HISTORY_CARDS + i * BLOCK, m->recent[at]);
        out[O_HISTORY_SEATS + i * 5 + REL(m->recent_seat[at])] = 1.0f;
    }
    for (int i = 0; i < imin(m->moves, MOVES); i++) {
        int at = (m->moves - 1 - i) % MOVES;
        out[O_TRICK + i * (5 + WORDS) + REL(m->move_seat[at])] = 1.0f;
        out[O_TRICK + i * (5 + WORDS) + 5 + m->move_word[at]] = 1.0f;
    }
    if (d->emperor >= 0) out[O_EMPEROR + REL(d->emperor)] = 1.0f;
    for (int s = 0; s < 5; s++)
        if (d->roles[s]) out[O_PUBLIC_ROLES + REL(s) * 4 + ROLE_COLUMN[d->roles[s]]] = 1.0f;
    int role = role_known(d, me);
    out[O_OWN_ROLE + (role ? 1 + ROLE_COLUMN[role] : 0)] = 1.0f;
    if (d->solo_declared && d->emperor >= 0) out[O_DECLARED + REL(d->emperor)] = 1.0f; /* view.py */
    if (d->declared && d->partner >= 0) out[O_DECLARED + REL(d->partner)] = 1.0f; /* declared_seats() */
    if (d->grabbed) out[O_GRABBED] = 1.0f;
    if (d->emperor < 0) out[O_MARKED_HOLDER + REL(d->holder)] = 1.0f;
    for (int s = 0; s < 5; s++) /* view.py marked_joker_seat(): the first seat holding it */
        if (d->hand[s][BJM]) { out[O_MARKED_JOKER + REL(s)] = 1.0f; break; }
    if (d->called >= 0) {
        out[O_CALLED_CARD + slot_of(d->called)] = 1.0f;
        if (d->called < 52) out[O_CALLED_CARD + NS + d->called % 4] = 1.0f;
    }
    for (int s = 0; s < 5; s++) {
        if (window && d->answers[s] >= 0) out[O_ANSWERED + REL(s)] = 1.0f;
        if (window ? d->asked[s] : s == me) out[O_PENDING + REL(s)] = 1.0f;
    }
    for (int i = 0; i < d->n_out; i++) out[O_OUT + REL(d->out[i])] = (float)((i + 1) / 5.0);
    out[O_PHASE + PHASE_COLUMN[(int)d->phase]] = 1.0f;
#undef REL
}

/* A contiguous buffer of exactly ``count`` items of ``itemsize`` bytes (writable where asked). */
static int buffer_of(PyObject *object, Py_buffer *view, const char *name, Py_ssize_t count,
                     Py_ssize_t itemsize, int writable) {
    int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, view, flags) < 0) return -1;
    if (view->len != count * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, not %zd", name, view->len, count * itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* whether ``action`` is among a game's ``count`` legal ids (its row of the legal buffer) */
static int listed(const int32_t *row, int64_t count, int64_t action) {
    for (int64_t a = 0; a < count; a++)
        if (row[a] == action) return 1;
    return 0;
}

/* One slot's next decision: forced ones played where they are skipped; then, unless the deal
 * ended (played out, or void), the seat to act, its observation and its legal ids. */
static void next_decision(Deal *d, Memory *m, const int8_t *deck, const float *base, int size,
                          int skip_forced, float *observation, int64_t *to_act, int64_t *forced,
                          uint8_t *ended, int32_t *legal_row, int64_t *count) {
    int ids[MAXLEGAL], k = legal(d, ids);
    while (skip_forced && k == 1 && !d->over) {
        apply_remembered(d, m, ids[0]);
        ++*forced;
        k = legal(d, ids);
    }
    if (d->over) { *ended = 1; *count = 0; return; }
    *to_act = d->pending;
    encode(d, m, deck, base + (size_t)d->pending * (size_t)size, size, observation);
    for (int j = 0; j < k; j++) legal_row[j] = ids[j];
    *count = k;
}

enum { B_PACKED, B_MEMORY, B_BASE, B_DECK, B_SLOTS, B_ACTIONS, B_OBSERVATIONS, B_TO_ACT, B_FORCED,
       B_ENDED, B_LEGAL, B_COUNTS, N_BUFFERS };

/* deal_steps(): see the methods' table and batch.py. Every listed slot's action is checked
 * against the legal ids its last decision gave before any slot moves. */
static PyObject *py_deal_steps(PyObject *self, PyObject *args) {
    PyObject *objects[N_BUFFERS];
    Py_buffer views[N_BUFFERS];
    Py_ssize_t n, size, k;
    int skip_forced, got = 0;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "nnnOOOOOOpOOOOOO", &n, &size, &k, &objects[B_PACKED],
                          &objects[B_MEMORY], &objects[B_BASE], &objects[B_DECK],
                          &objects[B_SLOTS], &objects[B_ACTIONS], &skip_forced,
                          &objects[B_OBSERVATIONS], &objects[B_TO_ACT], &objects[B_FORCED],
                          &objects[B_ENDED], &objects[B_LEGAL], &objects[B_COUNTS]))
        return NULL;
    if (n < 1 || size < O_VARIANT || k < 0 || k > n)
        return PyErr_Format(PyExc_ValueError, "%zd games of %zd floats, %zd slots", n, size, k);
    const struct { Py_ssize_t count, itemsize; int writable; const char *name; } shapes[N_BUFFERS] = {
        {n * P_SIZE, 1, 1, "packed"}, {n * (Py_ssize_t)sizeof(Memory), 1, 1, "memory"},
        {n * 5 * size, 4, 0, "base"}, {BLOCK, 1, 0, "deck"}, {k, 8, 0, "slots"},
        {n, 8, 0, "actions"}, {n * size, 4, 1, "observations"}, {n, 8, 1, "to_act"},
        {n, 8, 1, "forced"}, {n, 1, 1, "ended"}, {n * MAXLEGAL, 4, 1, "legal"}, {n, 8, 1, "counts"}};
    for (; got < N_BUFFERS; got++)
        if (buffer_of(objects[got], &views[got], shapes[got].name, shapes[got].count,
                      shapes[got].itemsize, shapes[got].writable) < 0)
            goto done;
    int8_t *packed = views[B_PACKED].buf;
    Memory *memory = views[B_MEMORY].buf;
    const float *base = views[B_BASE].buf;
    const int8_t *deck = views[B_DECK].buf;
    const int64_t *slots = views[B_SLOTS].buf, *actions = views[B_ACTIONS].buf;
    int64_t *counts = views[B_COUNTS].buf;
    int32_t *legal_rows = views[B_LEGAL].buf;
    Deal d;
    for (Py_ssize_t j = 0; j < k; j++) { /* every slot and action checked before any moves */
        int64_t i = slots[j], action = actions[i >= 0 && i < n ? i : 0], found = action < 0; /* -1: none */
        if (i < 0 || i >= n || (j && i <= slots[j - 1])) {
            PyErr_Format(PyExc_ValueError, "slots: %lld is not in 0..%zd, after the last", (long long)i, n - 1);
            goto done;
        }
        if (counts[i] < 0 || counts[i] > MAXLEGAL || !memory_ok(&memory[i])) {
            PyErr_Format(PyExc_ValueError, "slot %lld: counts or memory out of range", (long long)i);
            goto done;
        }
        if (!found && !listed(legal_rows + i * MAXLEGAL, counts[i], action)) {
            PyErr_Format(PyExc_ValueError, "slot %lld: action %lld is not legal", (long long)i, (long long)action);
            goto done;
        }
    }
    float *observations = views[B_OBSERVATIONS].buf;
    int64_t *to_act = views[B_TO_ACT].buf, *forced = views[B_FORCED].buf;
    uint8_t *ended = views[B_ENDED].buf;
    for (Py_ssize_t j = 0; j < k; j++) { /* a deal that unpacks badly was never packed here */
        int64_t i = slots[j];
        if (unpack(&d, packed + i * P_SIZE, P_SIZE) < 0) goto done;
        if (d.over) {
            PyErr_Format(PyExc_ValueError, "slot %lld: a deal over", (long long)i);
            goto done;
        }
        if (actions[i] >= 0) apply_remembered(&d, &memory[i], (int)actions[i]);
        next_decision(&d, &memory[i], deck, base + i * 5 * size, (int)size, skip_forced,
                      observations + i * size, &to_act[i], &forced[i], &ended[i],
                      legal_rows + i * MAXLEGAL, &counts[i]);
        pack(&d, packed + i * P_SIZE);
    }
    result = Py_None;
    Py_INCREF(result);
done:
    for (int b = 0; b < got; b++) PyBuffer_Release(&views[b]);
    return result;
}

/* first_illegal(n, slots, actions, legal, counts) -> the first listed slot whose action is not
 * among its legal ids, or -1 */
static PyObject *py_first_illegal(PyObject *self, PyObject *args) {
    PyObject *objects[4];
    Py_buffer views[4];
    Py_ssize_t n, k;
    int got = 0;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "nnOOOO", &n, &k, &objects[0], &objects[1], &objects[2], &objects[3]))
        return NULL;
    const char *names[4] = {"slots", "actions", "legal", "counts"};
    const Py_ssize_t counts_of[4] = {k, n, n * MAXLEGAL, n}, sizes[4] = {8, 8, 4, 8};
    for (; got < 4; got++)
        if (buffer_of(objects[got], &views[got], names[got], counts_of[got], sizes[got], 0) < 0) goto done;
    const int64_t *slots = views[0].buf, *actions = views[1].buf, *counts = views[3].buf;
    const int32_t *rows = views[2].buf;
    int64_t bad = -1;
    for (Py_ssize_t j = 0; j < k && bad < 0; j++) {
        int64_t i = slots[j];
        if (i < 0 || i >= n || counts[i] < 0 || counts[i] > MAXLEGAL) {
            PyErr_SetString(PyExc_ValueError, "slots or counts out of range");
            goto done;
        }
        if (!listed(rows + i * MAXLEGAL, counts[i], actions[i])) bad = i;
    }
    result = PyLong_FromLongLong(bad);
done:
    for (int b = 0; b < got; b++) PyBuffer_Release(&views[b]);
    return result;
}

/* ended(packed) -> dict: what a deal over in the core tells the Python state it ends (batch.py
 * give_back): whether it was void; the opening's outcome; the hands, seats out and sunk */
static PyObject *py_ended(PyObject *self, PyObject *args) {
    PyObject *packed;
    Deal d;
    if (!PyArg_ParseTuple(args, "O", &packed)) return NULL;
    Py_buffer view;
    if (buffer_of(packed, &view, "packed", P_SIZE, 1, 0) < 0) return NULL;
    int bad = unpack(&d, view.buf, P_SIZE);
    PyBuffer_Release(&view);
    if (bad < 0) return NULL;
    if (!d.over) return PyErr_Format(PyExc_ValueError, "the deal is not over");
    PyObject *hands = PyList_New(5), *out = PyList_New(d.n_out), *sunk = PyList_New(d.n_sunk);
    PyObject *roles = PyList_New(5);
    if (!hands || !out || !sunk || !roles) goto fail;
    for (int s = 0; s < 5; s++) {
        PyObject *hand = PyList_New(NK);
        if (!hand) goto fail;
        for (int k = 0; k < NK; k++) PyList_SET_ITEM(hand, k, PyLong_FromLong(d.hand[s][k]));
        PyList_SET_ITEM(hands, s, hand);
        PyList_SET_ITEM(roles, s, PyLong_FromLong(d.roles[s]));
    }
    for (int i = 0; i < d.n_out; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(d.out[i]));
    for (int i = 0; i < d.n_sunk; i++) PyList_SET_ITEM(sunk, i, PyLong_FromLong(d.sunk[i]));
    return Py_BuildValue(
        "{sOsNsNsNsisisisisisisisisisisN}", "void", d.void_deal ? Py_True : Py_False, "hands",
        hands, "out", out, "sunk", sunk, "emperor", d.emperor, "partner", d.partner, "called",
        d.called, "grabbed", d.grabbed, "declared", d.declared, "solo_declared", d.solo_declared,
        "solo", d.solo, "tell_kind", d.tell_kind, "holder", d.holder, "handed_on", d.handed_on,
        "roles", roles);
fail:
    Py_XDECREF(hands); Py_XDECREF(out); Py_XDECREF(sunk); Py_XDECREF(roles);
    return NULL;
}

/* gather(legal, counts, ids) -> total: every slot's legal ids end to end (CSR), as int64 */
static PyObject *py_gather(PyObject *self, PyObject *args) {
    PyObject *objects[3];
    Py_buffer views[3];
    Py_ssize_t n, total = 0;
    int got = 0;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "nOOO", &n, &objects[0], &objects[1], &objects[2])) return NULL;
    if (buffer_of(objects[0], &views[0], "legal", n * MAXLEGAL, 4, 0) < 0) return NULL;
    got = 1;
    if (buffer_of(objects[1], &views[1], "counts", n, 8, 0) < 0) goto done;
    got = 2;
    if (PyObject_GetBuffer(objects[2], &views[2], PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) goto done;
    got = 3;
    const int32_t *rows = views[0].buf;
    const int64_t *counts = views[1].buf;
    int64_t *ids = views[2].buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (counts[i] < 0 || counts[i] > MAXLEGAL) { PyErr_SetString(PyExc_ValueError, "counts: out of range"); goto done; }
        total += counts[i];
    }
    if (total * 8 > views[2].len) { PyErr_Format(PyExc_ValueError, "ids: room for %zd, not %zd", views[2].len / 8, total); goto done; }
    for (Py_ssize_t i = 0, at = 0; i < n; i++)
        for (int64_t a = 0; a < counts[i]; a++) ids[at++] = rows[i * MAXLEGAL + a];
    result = PyLong_FromSsize_t(total);
done:
    for (int b = 0; b < got; b++) PyBuffer_Release(&views[b]);
    return result;
}

static PyMethodDef methods[] = {
    {"legal", py_legal, METH_VARARGS,
     "legal(packed, seat=-1) -> the legal action ids of a seat to act (-1: the first)"},
    {"step", py_step, METH_VARARGS,
     "step(packed, action, seat=-1) -> the deal after a legal action of a seat to act"},
    {"choose", py_choose, METH_VARARGS, "choose(packed) -> the policy's action for the pending seat"},
    {"play_out", py_play_out, METH_VARARGS,
     "play_out(packed, first=-1) -> (places, twelfths, decisions): first applied, then the "
     "policy for every seat until the deal's scores (in twelfths of a point) are settled"},
    {"deal", py_deal, METH_VARARGS,
     "deal(cards, style, first, extra, rng_words) -> (5 x 56 kind counts, rng_words): the "
     "cards shuffled as random.Random with that getstate()[1] shuffles them, then dealt in five "
     "blocks (style 0, extra to a seat drawn at random) or one at a time from first (style 1)"},
    {"tribute", py_tribute, METH_VARARGS,
     "tribute(hands, scores, emperor, lone, rng_words) -> (payments, rng_words) or None: "
     "(kind, giver, taker) per card, drawn as random.Random with that getstate()[1] draws"},
    {"outcome", py_outcome, METH_VARARGS,
     "outcome(packed) -> (places, twelfths): the places and scores were the deal to end now"},
    {"begin", py_begin, METH_VARARGS,
     "begin(packed, hands) -> the packed deal dealt these hands, in its first phase (the rules "
     "of packed's game)"},
    {"random_deals", py_random_deals, METH_VARARGS,
     "random_deals(packed, seed, times) -> decisions: whole deals of packed's game (its deck), "
     "dealt, opened and played by random legal actions"},
    {"deal_steps", py_deal_steps, METH_VARARGS,
     "deal_steps(n, size, k, packed, memory, base, deck, slots, actions, skip_forced, "
     "observations, to_act, forced, ended, legal, counts): the k slots listed take their action "
     "(-1: none) and answer their next decision (batch.py)"},
    {"first_illegal", py_first_illegal, METH_VARARGS,
     "first_illegal(n, k, slots, actions, legal, counts) -> the first slot listed whose action "
     "is not among its legal ids, or -1"},
    {"ended", py_ended, METH_VARARGS,
     "ended(packed) -> what a deal over tells the Python state: void, hands, out, sunk, and the "
     "opening's emperor, partner, called, grabbed, declared, solo_declared, solo, tell_kind, "
     "holder, handed_on, roles (codes; -1: none)"},
    {"gather", py_gather, METH_VARARGS,
     "gather(n, legal, counts, ids) -> total: the slots' legal ids end to end"},
    {"random_playouts", py_random_playouts, METH_VARARGS,
     "random_playouts(packed, seed, times) -> decisions: random legal play to the deal's end"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "Baohuang's compiled core (see _core.c).", -1, methods,
    NULL, NULL, NULL, NULL,
};

/* OBSERVATION_OFFSETS: where deal_steps writes each block (encoding.py's OFFSET must agree) */
static int add_offsets(PyObject *m) {
    PyObject *offsets = Py_BuildValue(
        "{sisisisisisisisisisisisisisisisisisisisisisisisisisisi}", "hand", O_HAND, "unseen", O_UNSEEN,
        "played", O_PLAYED, "table_cards", O_TABLE_CARDS, "tribute", O_TRIBUTE, "history_cards",
        O_HISTORY_CARDS, "history_seats", O_HISTORY_SEATS, "trick", O_TRICK, "hand_sizes",
        O_HAND_SIZES, "table_owner", O_TABLE_OWNER, "second_circle", O_SECOND_CIRCLE, "yielders",
        O_YIELDERS, "claimant", O_CLAIMANT, "to_ask", O_TO_ASK, "emperor", O_EMPEROR,
        "public_roles", O_PUBLIC_ROLES, "own_role", O_OWN_ROLE, "declared", O_DECLARED,
        "grabbed", O_GRABBED, "marked_holder", O_MARKED_HOLDER, "marked_joker", O_MARKED_JOKER,
        "called_card", O_CALLED_CARD, "answered", O_ANSWERED, "pending", O_PENDING, "out", O_OUT,
        "phase", O_PHASE, "variant", O_VARIANT);
    return PyModule_AddObject(m, "OBSERVATION_OFFSETS", offsets); /* steals it on success */
}

PyMODINIT_FUNC PyInit__core(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && (PyModule_AddIntConstant(m, "PACKED_SIZE", P_SIZE) < 0 ||
              PyModule_AddIntConstant(m, "PENDING_AT", P_PENDING) < 0 ||
              PyModule_AddIntConstant(m, "VOID_AT", P_VOID) < 0 ||
              PyModule_AddIntConstant(m, "SIDES_AT", P_SIDES) < 0 ||
              PyModule_AddIntConstant(m, "STAKES_AT", P_STAKES) < 0 ||
              PyModule_AddIntConstant(m, "OPEN_AT", P_OPEN) < 0 ||
              PyModule_AddIntConstant(m, "OUT_AT", P_OUT) < 0 ||
              PyModule_AddIntConstant(m, "SUNK_AT", P_SUNK) < 0 ||
              PyModule_AddIntConstant(m, "MEMORY_SIZE", sizeof(Memory)) < 0 ||
              PyModule_AddIntConstant(m, "LOGGED_AT", offsetof(Memory, logged)) < 0 ||
              PyModule_AddIntConstant(m, "LOG_AT", offsetof(Memory, log)) < 0 ||
              PyModule_AddIntConstant(m, "LOG_SIZE", LOG) < 0 ||
              PyModule_AddIntConstant(m, "TRIBUTE_AT", offsetof(Memory, tribute)) < 0 ||
              PyModule_AddIntConstant(m, "MAX_LEGAL", MAXLEGAL) < 0 ||
              add_offsets(m) < 0)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
