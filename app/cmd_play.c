/* cmd_play.c -- `pizzabox play`: a game at the terminal, against bots or
 * hot-seat with friends.
 *
 * Everything a person sees is rendered from their seat's view, so nobody is
 * ever shown another seat's secrets. When stdin is not a terminal the same
 * commands are read line by line, so a whole game can be scripted. */
#include <ctype.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <editline/readline.h>

#include "../ai/bot.h"
#include "../core/record.h"
#include "../core/text.h"
#include "cli.h"
#include "textbuf.h"
#include "front.h"

#define HINT_BOT "expert" /* by default the strongest bot suggests moves (hint, Enter) */

typedef struct seat_info {
    bool human;
    char spec[CLI_SPEC_LEN]; /* "human" or a bot spec */
    char name[32];
    pb_bot *bot;
} seat_info;

typedef struct play {
    pb_game *g;
    const pb_front *front;   /* the game's drawing, input and rules text */
    pb_state *st;
    pb_record *rec;
    uint64_t seed;
    int players, humans;
    seat_info seats[PB_MAX_SEATS];
    const char *names[PB_MAX_SEATS];
    int actors[4096];        /* who made each recorded action, for undo */
    bool formal[4096];       /* and whether it was a formality, made at once (undo passes over it) */
    int nactions;
    int last_human;          /* the seat whose view is on screen */
    int last_round;
    const char *record_path;
    const char *hint_spec;
    const cli_common *options; /* the game's options when new (not from a record) */
    bool tty, colour;
    pb_bot *hinter;
    pb_action shown;         /* the move last suggested on this turn (hint, Enter), which Enter then plays */
    bool shown_valid;
    tb since[PB_MAX_SEATS];  /* hot-seat: what each human has not yet seen, in their words */
    char run[1024];          /* a bot's run of moves of one verb (pay, pay, pay), told as one line */
    int run_seat;
    char run_verb[24];
    bool unsaved;            /* moves made (or undone) since the game was last saved */
    char saved_to[1024];     /* where `save FILE` last wrote it */
} play;

enum turn_result { TURN_MOVE, TURN_AGAIN, TURN_QUIT, TURN_EOF };
enum command_result { NOT_A_COMMAND, CMD_DONE, CMD_UNDONE, CMD_QUIT };

/* ---- Input ---- */

/* Between prompts (while the bots think) the terminal does not echo: a move
 * typed ahead would be echoed amid the log's lines, then shown again by the
 * line editor, which reads it at the next prompt. The keys are not lost:
 * they wait in the terminal for that prompt. The line editor keeps the
 * settings it finds as the ones to restore (and does not edit without the
 * echo), so the echo is back before it starts, and after a signal or at exit. */
static struct termios tty_echoing;
static volatile sig_atomic_t tty_hushed;

static void tty_unhush(void)
{
    if (tty_hushed) {
        tcsetattr(STDIN_FILENO, TCSANOW, &tty_echoing);
        tty_hushed = 0;
    }
}

static void tty_unhush_and_die(int sig)
{
    tty_unhush();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void tty_hush(void)
{
    static bool hooked;
    struct termios quiet;
    if (tty_hushed || tcgetattr(STDIN_FILENO, &tty_echoing) != 0 || !(tty_echoing.c_lflag & ECHO))
        return;
    if (!hooked) {
        static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
            struct sigaction was, sa = {.sa_handler = tty_unhush_and_die};
            sigemptyset(&sa.sa_mask);
            if (sigaction(sigs[i], NULL, &was) == 0 && was.sa_handler == SIG_DFL)
                sigaction(sigs[i], &sa, NULL);
        }
        atexit(tty_unhush);
        hooked = true;
    }
    quiet = tty_echoing;
    quiet.c_lflag &= ~(tcflag_t)ECHO;
    if (tcsetattr(STDIN_FILENO, TCSANOW, &quiet) == 0)
        tty_hushed = 1;
}

/* One line without its newline (caller frees); NULL at end of input. */
static char *read_line(const play *p, const char *prompt)
{
    if (p->tty) {
        tty_unhush();
        char *line = readline(prompt);
        tty_hush();
        if (line && *line)
            add_history(line);
        return line;
    }
    fputs(prompt, stdout);
    fflush(stdout);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, stdin);
    if (n < 0) {
        free(line);
        return NULL;
    }
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = 0;
    puts(line); /* echo, so a scripted game reads like one typed in */
    return line;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = 0;
    return s;
}

/* ---- Showing the table ---- */

static json_t *view_for(const play *p, int seat)
{
    return p->g->ops->view(p->g, p->st, seat);
}

/* Print one rendering of the seat's view (the table, or the prompt). */
static void show(const play *p, int seat, char *(*render)(const json_t *, const pb_tui_opts *),
                 const char *before)
{
    json_t *v = view_for(p, seat);
    pb_tui_opts o = {p->colour, p->names, seat};
    char *text = render(v, &o);
    printf("%s%s", before, text ? text : "");
    free(text);
    json_decref(v);
}

static void show_table(const play *p, int seat)
{
    show(p, seat, p->front->table, "\n");
}

static void show_prompt(const play *p, int seat)
{
    show(p, seat, p->front->prompt, "");
}

/* Who watches the log: the one human, or everyone at a hot-seat table. */
static int log_viewer(const play *p)
{
    if (p->humans != 1)
        return PB_SPECTATOR;
    for (int s = 0; s < p->players; s++)
        if (p->seats[s].human)
            return s;
    return PB_SPECTATOR;
}

/* A line for the log, as the watching seat may see the move. A formality
 * made at once for the watching human says so; to anyone else it is a move
 * like any other (that the seat could play nothing is its own secret). */
static void print_lines(const char *text, int indent);

/* Print the bot's run of moves being gathered, if any. */
static void flush_run(play *p)
{
    if (!p->run[0])
        return;
    size_t n = strlen(p->run);
    if (n + 1 < sizeof p->run)
        memcpy(p->run + n, "\n", 2);
    print_lines(p->run, 4);
    p->run[0] = 0;
}

static void announce(play *p, int seat, pb_action a, bool at_once)
{
    char text[256];
    int viewer = log_viewer(p);
    if (p->g->ops->describe(p->g, p->st, a, viewer, text, sizeof text) != 0)
        return;
    /* a bot's steps of one kind (a payment card by card) share a line, so
     * the move they pay for stays on screen */
    char verb[sizeof p->run_verb];
    snprintf(verb, sizeof verb, "%.*s", (int)strcspn(text, " "), text);
    size_t used = strlen(p->run);
    if (p->run[0] && p->run_seat == seat && strcmp(p->run_verb, verb) == 0 &&
        used + strlen(text) + 3 < sizeof p->run) {
        snprintf(p->run + used, sizeof p->run - used, "; %s", text);
    } else {
        flush_run(p);
        if (!p->seats[seat].human) {
            snprintf(p->run, sizeof p->run, "  %s: %s", p->names[seat], text);
            p->run_seat = seat;
            snprintf(p->run_verb, sizeof p->run_verb, "%s", verb);
        } else {
            char said[400]; /* a payment of many parts is a long line */
            snprintf(said, sizeof said, "  %s: %s%s", p->names[seat], text,
                     at_once && viewer == seat ? " (nothing to decide: played at once)" : "");
            print_lines(said, 4);
        }
    }
    if (p->humans < 2)
        return;
    /* Hot-seat: the hand-over clears the screen, so each other human is
     * told the move later, as they may see it. */
    char line[320];
    for (int h = 0; h < p->players; h++)
        if (p->seats[h].human && h != seat &&
            p->g->ops->describe(p->g, p->st, a, h, text, sizeof text) == 0) {
            int n = snprintf(line, sizeof line, "  %s: %s\n", p->names[seat], text);
            tb_raw(&p->since[h], line, n < (int)sizeof line ? (size_t)n : sizeof line - 1);
        }
}

/* Print lines of text, each wrapped at blanks to the terminal's width,
 * a line's continuation indented by `indent` more than the line. */
static void print_lines(const char *text, int indent)
{
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n"), lead = strspn(line, " ");
        if (cols_of(line, len) <= TB_WIDTH) { /* fits: as it is */
            printf("%.*s\n", (int)len, line);
            line += len + (line[len] == '\n');
            continue;
        }
        int col = printf("%.*s", (int)lead, line);
        for (const char *w = line + lead, *end = line + len; w < end;) {
            size_t n = strcspn(w, " \n");
            int wc = cols_of(w, n);
            if (col > (int)lead && col + 1 + wc > TB_WIDTH)
                col = printf("\n%*s", (int)lead + indent, "") - 1;
            else if (col > (int)lead)
                col += printf(" ");
            col += wc;
            printf("%.*s", (int)n, w);
            w += n;
            w += strspn(w, " ");
        }
        printf("\n");
        line += len + (line[len] == '\n');
    }
}

/* What everyone learned from the move beyond itself (a toll paid, a round's
 * reveal, a player who skips), told in the log's words. */
static void announce_news(play *p, const pb_state *before)
{
    char news[768], line[800];
    pb_news(p->g, before, p->st, p->names, news, sizeof news);
    if (!*news)
        return;
    flush_run(p);
    int n = snprintf(line, sizeof line, "  %s\n", news);
    print_lines(line, 2);
    for (int h = 0; p->humans > 1 && h < p->players; h++) /* public words */
        if (p->seats[h].human)
            tb_raw(&p->since[h], line, n < (int)sizeof line ? (size_t)n : sizeof line - 1);
}

static void tell_gained(play *p, int seat, const json_t *seen, const char *said)
{
    json_t *now = view_for(p, seat);
    char got[600], line[620];
    if (p->front->gained(seen, now, said, got, sizeof got) == 0 && *got) {
        flush_run(p);
        snprintf(line, sizeof line, "  %s\n", got);
        print_lines(line, 4);
    }
    json_decref(now);
}

static void announce_round(play *p)
{
    pb_tui_opts o = {p->colour, p->names, log_viewer(p)};
    char *text = pb_front_banner(p->front, p->g, p->st, &o, &p->last_round);
    if (text) {
        flush_run(p);
        fputs(text, stdout);
        for (int h = 0; p->humans > 1 && h < p->players; h++) /* public words: a spectator's */
            if (p->seats[h].human)
                tb_raw(&p->since[h], text, strlen(text));
        free(text);
    }
}

/* ---- Commands other than moves ---- */

static void print_help(const play *p)
{
    const char *piece = p->front->piece;
    printf("Type your move (the prompt shows the form; Enter shows the suggested move,\n"
           "Enter again plays it), or one of:\n"
           "  help            this list\n"
           "  rules [topic]   the rules; topics:\n"
           "                  %s\n", p->front->rules_topics);
    if (piece && strcmp(piece, "Special") == 0)
        printf("  rules SPECIAL   what a Special does, named as the table shows it\n");
    else if (piece)
        printf("  rules CARD      what a card does, named as you type it\n");
    printf("  hint            what the strongest bot would do, and why\n"
           "  table           show the table again\n"
           "  undo            take back your last decision (only against bots)\n"
           "  save FILE       save the game; continue later with play --resume FILE\n"
           "  quit            leave the game\n");
}

/* Print text of paragraphs (lines, blank lines between) wrapped to the
 * terminal's 80 columns, whatever the width of its lines. */
static void print_wrapped(const char *text, size_t n)
{
    tb b = {0};
    char *para = malloc(n + 1);
    size_t plen = 0;
    for (const char *line = text, *end = text + n; para && line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);
        if (len) {
            if (plen)
                para[plen++] = ' ';
            memcpy(para + plen, line, len);
            plen += len;
        }
        if ((!len || !nl || nl + 1 >= end) && plen) { /* a paragraph ends */
            para[plen] = 0;
            tb_para(&b, para, 0);
            tb_nl(&b);
            plen = 0;
        }
        if (!len && b.len)
            tb_raw(&b, "\n", 1);
        line += len + 1;
    }
    char *out = tb_done(&b);
    fputs(out ? out : "", stdout);
    free(out);
    free(para);
}

/* Print a "## topic" section of the rules text, or the list of topics. */
static void print_rules(const play *p, const char *topic)
{
    const char *text = p->front->rules;
    if (!topic || !*topic) {
        int col = printf("Topics:");
        for (const char *h = strstr(text, "\n## "); h; h = strstr(h + 1, "\n## ")) {
            int len = (int)strcspn(h + 4, "\n");
            if (col + 1 + len > 79)
                col = printf("\n       ") - 1;
            col += printf(" %.*s", len, h + 4);
        }
        printf("\n");
        if (p->front->piece)
            printf("and any %s by the name the table shows (rules NAME)\n", p->front->piece);
        return;
    }
    for (const char *h = strstr(text, "\n## "); h; h = strstr(h + 1, "\n## ")) {
        size_t len = strcspn(h + 4, "\n");
        if (len == strlen(topic) && strncasecmp(h + 4, topic, len) == 0) {
            const char *body = h + 4 + len + 1, *end = strstr(body, "\n## ");
            print_wrapped(body, end ? (size_t)(end - body) + 1 : strlen(body));
            return;
        }
    }
    char card[1024];
    if (pb_explain(p->g, topic, card, sizeof card) == 0) { /* a card or a Special by name */
        size_t len = strlen(card);
        if (len + 1 < sizeof card)
            memcpy(card + len, "\n", 2);
        print_wrapped(card, strlen(card));
        return;
    }
    const char *piece = p->front->piece;
    printf("no rules topic%s%s named '%s' (type 'rules' for the topics)\n", piece ? " or " : "", piece ? piece : "",
           topic);
}

/* A bot's randomness for this decision depends only on the game's seed and
 * the move number, so a resumed or undone game plays out the same, and a
 * hint is the move Enter then plays. */
static void reseed(const play *p, pb_bot *bot, int seat)
{
    pb_bot_reseed(bot, pb_derive_seed(p->seed, (uint64_t)p->nactions * PB_MAX_SEATS + (uint64_t)seat));
}

static pb_action suggest(play *p, int seat, bool explain)
{
    reseed(p, p->hinter, seat);
    pb_action a = pb_bot_choose(p->hinter, p->g, p->st, seat);
    /* A search cut short by its CPU cap may answer otherwise a second time:
     * Enter plays the move shown, not a new search's. */
    p->shown = a;
    p->shown_valid = true;
    if (explain) {
        char text[256];
        p->g->ops->action_to_text(p->g, p->st, a, text, sizeof text);
        /* "hint: MOVE  (why)", the why on lines of its own when too long */
        char line[1024];
        int n = snprintf(line, sizeof line, "hint: %s  (%s)", text, pb_bot_why(p->hinter));
        if (n > 0 && cols_of(line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) > TB_WIDTH) {
            printf("hint: %s\n", text);
            snprintf(line, sizeof line, "  (%s)", pb_bot_why(p->hinter));
        }
        print_lines(line, 1);
    }
    return a;
}

static int save_record(const play *p, const char *path)
{
    char err[PB_ERR_LEN];
    if (pb_record_save(p->rec, path, err, sizeof err) != 0) {
        printf("%s\n", err);
        return -1;
    }
    return 0;
}

/* Rebuild the game from the record's first n actions: the same seed gives
 * the same shuffles, so nothing hidden is re-dealt. */
static int rebuild(play *p, int n)
{
    json_t *rec = pb_record_to_json(p->rec);
    /* A copy: the record's own list is emptied below and refilled. */
    json_t *actions = json_deep_copy(json_object_get(rec, "actions"));
    p->g->ops->init(p->g, p->st, p->seed);
    pb_record_truncate(p->rec, 0);
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        pb_action a;
        char err[PB_ERR_LEN];
        const char *t = json_string_value(json_array_get(actions, (size_t)i));
        p->actors[i] = pb_current_seat(p->g, p->st);
        p->formal[i] = pb_is_formality(p->g, p->st);
        rc = p->g->ops->action_from_text(p->g, p->st, t, &a, err, sizeof err);
        if (rc == 0 && (rc = pb_record_add(p->rec, p->g, p->st, a)) == 0)
            rc = p->g->ops->apply(p->g, p->st, a, err, sizeof err);
    }
    json_decref(actions);
    json_decref(rec);
    p->nactions = n;
    return rc;
}

static int undo(play *p, int seat)
{
    if (p->humans != 1) {
        printf("undo is only for games against bots\n");
        return -1;
    }
    /* the seat's last real decision: never back to a formality, which
     * would only be made again at once */
    int k = p->nactions - 1;
    while (k >= 0 && (p->actors[k] != seat || p->formal[k]))
        k--;
    if (k < 0) {
        printf("nothing to undo yet\n");
        return -1;
    }
    /* the decision taken back, told in the log's words: it is asked again */
    json_t *rec = pb_record_to_json(p->rec);
    char taken[256], text[256] = "", err[PB_ERR_LEN];
    const char *was = json_string_value(json_array_get(json_object_get(rec, "actions"), (size_t)k));
    snprintf(taken, sizeof taken, "%s", was ? was : "");
    json_decref(rec);
    if (rebuild(p, k) != 0) {
        printf("undo failed: the record does not replay\n");
        return -1;
    }
    p->last_round = -1;
    p->unsaved = true;
    pb_action a;
    if (p->g->ops->action_from_text(p->g, p->st, taken, &a, err, sizeof err) != 0 ||
        p->g->ops->describe(p->g, p->st, a, seat, text, sizeof text) != 0)
        text[0] = 0;
    printf("Took back your last decision%s%s%s: make it again.\n", text[0] ? " (" : "", text, text[0] ? ")" : "");
    if (p->record_path && save_record(p, p->record_path) == 0)
        p->unsaved = false;
    return 0;
}

/* ---- A human's turn ---- */

/* Clear the screen and the terminal's scrollback: ESC[2J, then ESC[3J, as
 * some terminals (tmux with scroll-on-clear, VTE) move a cleared screen into
 * the scrollback. */
static void clear_terminal(void)
{
    printf("\033[H\033[2J\033[3J");
    fflush(stdout);
}

/* Hot-seat: hide everything the previous player typed or saw, wait for the
 * next one, and tell them what happened since their last turn. */
static int hand_over(play *p, int seat)
{
    if (p->tty) {
        clear_terminal();
        /* The line editor would give the previous player's lines back (up
         * arrow, or a yank of a killed line): a fresh one forgets them. */
        clear_history();
        tty_unhush(); /* a line editor made while the echo is off would not edit */
        rl_initialize();
    }
    printf("\n==== %s, your turn. Everyone else, look away. Press Enter. ====\n", p->names[seat]);
    char *line = read_line(p, "");
    if (!line)
        return -1;
    free(line);
    if (p->tty)
        clear_terminal();
    p->last_human = seat;
    return 0;
}

/* What happened since the seat's last turn (hot-seat), shown or not, then
 * forgotten. */
static void since(play *p, int seat, bool show)
{
    tb *b = &p->since[seat];
    if (show && b->len)
        printf("Since your last turn:\n%.*s", (int)b->len, b->s);
    free(b->s);
    *b = (tb){0};
}

/* `save FILE`: the game written there, remembered as saved. */
static int save_game(play *p, const char *path)
{
    if (save_record(p, path) != 0)
        return -1;
    snprintf(p->saved_to, sizeof p->saved_to, "%s", path);
    p->unsaved = false;
    return 0;
}

/* `quit` at a terminal with moves not saved: asked first, as a mistyped
 * quit would lose the game (a script is not asked: nobody would answer).
 * `save FILE` as the answer saves and quits; anything else but yes goes
 * back to the game. */
static bool really_quit(play *p)
{
    if (!p->tty || !p->unsaved || p->nactions == 0)
        return true;
    if (p->saved_to[0])
        printf("The moves since you saved to %s are not saved.\n", p->saved_to);
    else
        printf("The game is not saved: quitting loses it.\n");
    printf("Quit anyway? y quits, 'save FILE' saves and quits, Enter or n plays on.\n");
    for (;;) {
        char *raw = read_line(p, "Quit? ");
        if (!raw)
            return true;
        char *line = trim(raw);
        bool quit = strcasecmp(line, "y") == 0 || strcasecmp(line, "yes") == 0, again = false;
        if (strncasecmp(line, "save", 4) == 0 && (line[4] == ' ' || !line[4])) {
            char *file = trim(line + 4);
            if (!*file)
                printf("save needs a file name: save FILE\n");
            quit = *file && save_game(p, file) == 0;
            again = !quit; /* a save that failed says why and asks again */
        }
        free(raw);
        if (!again)
            return quit;
    }
}

static enum command_result command(play *p, int seat, const char *text)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", text);
    char *line = copy, *arg = line + strcspn(line, " ");
    if (*arg)
        *arg++ = 0;
    arg = trim(arg);
    if (strcasecmp(line, "help") == 0 || strcmp(line, "?") == 0)
        print_help(p);
    else if (strcasecmp(line, "rules") == 0)
        print_rules(p, arg);
    else if (strcasecmp(line, "hint") == 0)
        suggest(p, seat, true);
    else if (strcasecmp(line, "table") == 0)
        show_table(p, seat);
    else if (strcasecmp(line, "undo") == 0)
        return undo(p, seat) == 0 ? CMD_UNDONE : CMD_DONE;
    else if (strcasecmp(line, "save") == 0) {
        if (!*arg)
            printf("save needs a file name: save FILE\n");
        else if (save_game(p, arg) == 0)
            printf("saved to %s (continue with: pizzabox play --resume %s)\n", arg, arg);
    } else if (strcasecmp(line, "quit") == 0 || strcasecmp(line, "exit") == 0)
        return really_quit(p) ? CMD_QUIT : CMD_DONE;
    else
        return NOT_A_COMMAND;
    return CMD_DONE;
}

static enum turn_result human_turn(play *p, int seat, pb_action *out)
{
    bool handed = p->humans > 1 && seat != p->last_human;
    if (handed && hand_over(p, seat) != 0)
        return TURN_EOF;
    show_table(p, seat);
    since(p, seat, handed); /* without a hand-over it was seen as it happened */
    show_prompt(p, seat);
    char prompt[64];
    snprintf(prompt, sizeof prompt, "%s> ", p->names[seat]);
    /* At a terminal a stray Enter must not spend anything: the first shows
     * the suggestion, an Enter right after it (or after hint) plays it.
     * Piped input is a script: there one empty line plays it. */
    bool offered = !p->tty;
    p->shown_valid = false;
    for (;;) {
        char *raw = read_line(p, prompt);
        if (!raw)
            return TURN_EOF;
        char *line = trim(raw), err[PB_ERR_LEN], notation[256];
        if (!*line && !offered) {
            free(raw);
            char text[256];
            p->g->ops->action_to_text(p->g, p->st, suggest(p, seat, false), text, sizeof text);
            char said[512];
            snprintf(said, sizeof said, "suggested: %s  (Enter again plays it; or type your own move)", text);
            print_lines(said, 2);
            offered = true;
            continue;
        }
        enum command_result cr = *line ? command(p, seat, line) : NOT_A_COMMAND;
        offered = !p->tty || (cr == CMD_DONE && strcasecmp(line, "hint") == 0);
        if (cr != NOT_A_COMMAND) {
            free(raw);
            if (cr == CMD_DONE)
                continue;
            return cr == CMD_QUIT ? TURN_QUIT : TURN_AGAIN;
        }
        json_t *v = view_for(p, seat);
        int rc = 0;
        if (!*line) { /* Enter: the suggested move, the one just shown */
            *out = p->shown_valid ? p->shown : suggest(p, seat, false);
            char text[256], said[300];
            p->g->ops->action_to_text(p->g, p->st, *out, text, sizeof text);
            snprintf(said, sizeof said, "(suggested) %s", text);
            print_lines(said, 2);
        } else {
            rc = p->front->translate(v, line, notation, sizeof notation, err, sizeof err);
            if (rc == 0)
                rc = p->g->ops->action_from_text(p->g, p->st, notation, out, err, sizeof err);
        }
        json_decref(v);
        free(raw);
        if (rc == 0)
            return TURN_MOVE;
        print_lines(err, 2);
        show_prompt(p, seat);
    }
}

/* ---- The game ---- */

static int record_move(play *p, int seat, pb_action a, bool formality)
{
    char err[PB_ERR_LEN];
    if (p->nactions >= (int)(sizeof p->actors / sizeof p->actors[0]) ||
        pb_record_add(p->rec, p->g, p->st, a) != 0 || p->g->ops->apply(p->g, p->st, a, err, sizeof err) != 0) {
        fprintf(stderr, "pizzabox play: move refused\n");
        return -1;
    }
    p->formal[p->nactions] = formality;
    p->actors[p->nactions++] = seat;
    p->unsaved = true;
    if (p->record_path) {
        if (save_record(p, p->record_path) != 0)
            return -1;
        p->unsaved = false;
    }
    return 0;
}

static void finish(play *p)
{
    flush_run(p);
    show_table(p, log_viewer(p));
    char seats[PB_MAX_SEATS * CLI_SPEC_LEN] = "", again[8192];
    for (int s = 0; s < p->players; s++)
        snprintf(seats + strlen(seats), sizeof seats - strlen(seats), "%s%s", s ? "," : "", p->seats[s].spec);
    if (cli_command_line(again, sizeof again, "play", p->g, p->options, p->seed, "--seats", seats) == 0) {
        printf("\nThe game was dealt from seed %llu; this deals it again:\n", (unsigned long long)p->seed);
        cli_print_command(stdout, again);
        printf("\n");
    } else {
        printf("\nThe game was dealt from seed %llu.\n\n", (unsigned long long)p->seed);
    }
    p->front->print_result(stdout, p->g, p->st, p->names);
}

/* Leaving before the end: where the game is kept, or that it is not, and
 * how to keep one next time. */
static void tell_saved(const play *p)
{
    const char *path = p->record_path ? p->record_path : p->saved_to;
    if (!p->unsaved && *path)
        printf("the game is saved in %s: pizzabox play --resume %s\n", path, path);
    else if (*path)
        printf("the game was not saved after its last moves: %s has it as it was saved "
               "(pizzabox play --resume %s)\n", path, path);
    else if (p->nactions > 0)
        print_lines("the game was not saved: 'save FILE' during a game keeps it (or play --record FILE "
                    "from the start), and pizzabox play --resume FILE continues it", 0);
}

static int run(play *p)
{
    if (p->tty)
        tty_hush(); /* the bots may move first */
    while (!pb_is_terminal(p->g, p->st)) {
        announce_round(p);
        int seat = pb_current_seat(p->g, p->st);
        /* only with one person at the table: another would learn from the
         * question skipped that this seat had nothing to answer with */
        bool formality = pb_is_formality(p->g, p->st), at_once = formality && p->seats[seat].human && p->humans == 1;
        pb_action a;
        if (at_once) {
            /* its one move, made without asking */
            static pb_action only[PB_MAX_ACTIONS];
            p->g->ops->legal_actions(p->g, p->st, only);
            a = only[0];
        } else if (p->seats[seat].human) {
            flush_run(p);
            enum turn_result r = human_turn(p, seat, &a);
            if (r == TURN_AGAIN)
                continue;
            if (r == TURN_QUIT || r == TURN_EOF) {
                if (r == TURN_EOF)
                    printf("\ninput ended before the game was over\n");
                tell_saved(p);
                return r == TURN_QUIT ? 0 : 1;
            }
        } else {
            reseed(p, p->seats[seat].bot, seat);
            a = pb_bot_choose(p->seats[seat].bot, p->g, p->st, seat);
        }
        announce(p, seat, a, at_once);
        /* what a person's own move brought them unseen by the others (a
         * card from the deck), from their views before and after */
        json_t *seen = p->seats[seat].human && p->front->gained ? view_for(p, seat) : NULL;
        char said[256] = "";
        if (seen)
            p->g->ops->describe(p->g, p->st, a, seat, said, sizeof said);
        pb_state *before = pb_state_clone(p->g, p->st);
        if (!before || record_move(p, seat, a, formality) != 0) {
            free(before);
            json_decref(seen);
            return 1;
        }
        announce_news(p, before);
        free(before);
        if (seen)
            tell_gained(p, seat, seen, said);
        json_decref(seen);
    }
    finish(p);
    return 0;
}

/* A game continued from a record: how far it is, and its last moves in the
 * log's words (the round's banner follows), so the player knows where they
 * are. At a hot-seat table, in public words, told after the hand-over. */
static void tell_resumed(play *p, const char *path)
{
    enum { LAST = 6 };
    json_t *rec = pb_record_to_json(p->rec);
    const json_t *actions = json_object_get(rec, "actions");
    int n = (int)json_array_size(actions), from = n > LAST ? n - LAST : 0, viewer = log_viewer(p);
    char line[800];
    int len = snprintf(line, sizeof line, "Continuing %s: %d move%s played%s\n", path, n, n == 1 ? "" : "s",
                       n > LAST ? ", the last ones:" : n ? ":" : ".");
    tb said = {0};
    tb_raw(&said, line, len < (int)sizeof line ? (size_t)len : sizeof line - 1);
    pb_state *st = pb_state_new(p->g, p->seed);
    for (int i = 0; st && i < n; i++) {
        pb_action a;
        char err[PB_ERR_LEN], text[256];
        int seat = pb_current_seat(p->g, st);
        if (p->g->ops->action_from_text(p->g, st, json_string_value(json_array_get(actions, (size_t)i)), &a, err,
                                         sizeof err) != 0)
            break;
        if (i >= from && p->g->ops->describe(p->g, st, a, viewer, text, sizeof text) == 0) {
            len = snprintf(line, sizeof line, "  %s: %s\n", p->names[seat], text);
            tb_raw(&said, line, len < (int)sizeof line ? (size_t)len : sizeof line - 1);
        }
        pb_state *before = i >= from ? pb_state_clone(p->g, st) : NULL;
        if (p->g->ops->apply(p->g, st, a, err, sizeof err) != 0) {
            free(before);
            break;
        }
        char news[768];
        if (before) { /* what the move made known beyond itself, as the log told it */
            pb_news(p->g, before, st, p->names, news, sizeof news);
            len = *news ? snprintf(line, sizeof line, "  %s\n", news) : 0;
            tb_raw(&said, line, len < (int)sizeof line ? (size_t)len : sizeof line - 1);
        }
        free(before);
    }
    free(st);
    json_decref(rec);
    char *text = tb_done(&said);
    if (text && p->humans < 2)
        print_lines(text, 4);
    for (int h = 0; text && p->humans > 1 && h < p->players; h++) /* the hand-over clears the screen */
        if (p->seats[h].human)
            tb_raw(&p->since[h], text, strlen(text));
    free(text);
}

/* ---- Setting up ---- */

/* Names come from records too: keep them printable and one line. */
static void clean_name(char *s)
{
    pb_text_make_printable(s);
}

static void name_seats(play *p)
{
    for (int s = 0; s < p->players; s++) {
        seat_info *t = &p->seats[s];
        const char *given = pb_record_name(p->rec, s);
        if (given && *given)
            snprintf(t->name, sizeof t->name, "%s", given);
        else if (t->human)
            snprintf(t->name, sizeof t->name, p->humans == 1 ? "You" : "Player %d", s + 1);
        else
            snprintf(t->name, sizeof t->name, "%c%s %d", toupper((unsigned char)t->spec[0]),
                     t->spec + 1, s + 1);
        clean_name(t->name);
        p->names[s] = t->name;
    }
}

/* Seats from a comma list; a list of one bot or "human" is not expanded. */
static int parse_seats(play *p, const char *list)
{
    char specs[PB_MAX_SEATS][CLI_SPEC_LEN];
    int n = cli_seat_list("play", list, 0, specs);
    for (int s = 0; s < n; s++) {
        memcpy(p->seats[s].spec, specs[s], CLI_SPEC_LEN);
        p->seats[s].human = strcmp(specs[s], "human") == 0;
    }
    return n;
}

static int make_seat_bots(play *p)
{
    p->humans = 0;
    for (int s = 0; s < p->players; s++) {
        seat_info *t = &p->seats[s];
        if (t->human) {
            p->humans++;
            continue;
        }
        char err[PB_ERR_LEN];
        t->bot = pb_bot_new(t->spec, pb_derive_seed(p->seed, 7000u + (unsigned)s), err, sizeof err);
        if (!t->bot) {
            cli_error("play", "seat %d: %s", s + 1, err);
            return -1;
        }
    }
    char err[PB_ERR_LEN];
    p->hinter = pb_bot_new(p->hint_spec, pb_derive_seed(p->seed, 9999), err, sizeof err);
    if (!p->hinter)
        cli_error("play", "--hint: %s", err);
    const char *specs[PB_MAX_SEATS];
    for (int s = 0; s < p->players; s++)
        specs[s] = p->seats[s].spec;
    pb_record_set_seats(p->rec, specs, p->players);
    return p->hinter ? 0 : -1;
}

static int start_new(play *p, cli_common *c, const char *seats)
{
    int n = parse_seats(p, seats ? seats : "human");
    if (n < 0)
        return -1;
    if (!seats) { /* one human, the rest greedy */
        n = c->players ? c->players : cli_default_players(c->game);
        for (int s = 1; s < n; s++)
            snprintf(p->seats[s].spec, sizeof p->seats[s].spec, "greedy");
    } else if (c->players && c->players != n) {
        cli_error("play", "--players %d but --seats lists %d seats", c->players, n);
        return -1;
    }
    c->players = n;
    p->g = cli_make_game(c);
    if (!p->g)
        return -1;
    p->players = p->g->players;
    p->seed = c->seed;
    p->st = pb_state_new(p->g, p->seed);
    p->rec = pb_record_new(p->g, p->seed);
    return p->st && p->rec ? 0 : -1;
}

/* A record is a file from anywhere: it may only name seats that cannot be
 * made to think for hours. */
static bool trusted_seat(const char *spec)
{
    static const char *const ok[] = {"human", "random", "greedy", "easy", "medium", "hard", "expert", NULL};
    for (int i = 0; ok[i]; i++)
        if (strcmp(spec, ok[i]) == 0)
            return true;
    const char *n = strncmp(spec, "mcts:iters=", 11) == 0 ? spec + 11 : NULL;
    return n && strlen(n) >= 1 && strlen(n) <= 6 && strspn(n, "0123456789") == strlen(n) && atol(n) <= 100000;
}

static int start_resumed(play *p, const char *path, const char *seats)
{
    char err[PB_ERR_LEN];
    char *text = pb_read_file(path, 16u << 20, err, sizeof err);
    pb_replay r;
    if (!text || pb_replay_text(text, &r, err, sizeof err) != 0) {
        free(text);
        cli_error("play", "%s: %s", path, err);
        return -1;
    }
    free(text);
    p->g = r.game;
    p->st = r.state;
    p->rec = r.record;
    p->players = p->g->players;
    json_t *j = pb_record_to_json(p->rec);
    p->seed = (uint64_t)json_integer_value(json_object_get(j, "seed"));
    json_decref(j);
    /* Replay once more to learn who made each move, for undo. */
    if (r.actions > (int)(sizeof p->actors / sizeof p->actors[0]) || rebuild(p, r.actions) != 0) {
        cli_error("play", "%s: the record is too long to continue", path);
        return -1;
    }
    if (seats) {
        int n = parse_seats(p, seats); /* -1: it said why */
        if (n >= 0 && n != p->players)
            cli_error("play", "--seats must list %d seats for this game", p->players);
        if (n != p->players)
            return -1;
    } else {
        for (int s = 0; s < p->players; s++) {
            const char *spec = pb_record_seat(p->rec, s);
            if (!spec)
                spec = "human";
            if (!trusted_seat(spec)) {
                cli_error("play", "%s: seat %d is played by \"%.40s\", which a record may not ask for "
                          "(human, random, greedy, a level, mcts:iters=N up to 100000)", path, s + 1, spec);
                return -1;
            }
            snprintf(p->seats[s].spec, sizeof p->seats[s].spec, "%s", spec);
            p->seats[s].human = strcmp(p->seats[s].spec, "human") == 0;
        }
    }
    return 0;
}

static void play_free(play *p)
{
    for (int s = 0; s < PB_MAX_SEATS; s++)
        free(p->since[s].s);
    for (int s = 0; s < PB_MAX_SEATS; s++)
        pb_bot_free(p->seats[s].bot);
    pb_bot_free(p->hinter);
    pb_record_free(p->rec);
    free(p->st);
    pb_game_free(p->g);
}

/* The bots' names, wrapped to 80 columns after "Bots:". */
static void print_bots(void)
{
    int col = 5;
    for (const char *w = pb_bot_names; *w;) {
        int len = (int)strcspn(w, ",");
        if (col + 1 + len + 1 > 80)
            col = printf("\n     ") - 1;
        col += printf(" %.*s%s", len, w, w[len] ? "," : "");
        w += len;
        w += strspn(w, ", ");
    }
    printf("\n");
}

enum { OPT_SEATS = 1, OPT_RECORD, OPT_RESUME, OPT_HINT, OPT_HELP };

int cmd_play(int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_COMMON_OPTIONS,
        {"seats", required_argument, 0, OPT_SEATS},   {"record", required_argument, 0, OPT_RECORD},
        {"resume", required_argument, 0, OPT_RESUME}, {"hint", required_argument, 0, OPT_HINT},
        {"help", no_argument, 0, OPT_HELP},           {0, 0, 0, 0}};
    cli_common c = {.game = "nyslice"};
    const char *seats = NULL, *resume = NULL, *record = NULL, *hint = HINT_BOT;
    int opt;
    opterr = 0;
    optind = 1;
    while ((opt = cli_getopt("play", argc, argv, opts)) != -1) {
        int common = cli_common_option(&c, opt, optarg);
        if (common < 0)
            return EXIT_USAGE;
        if (common)
            continue;
        switch (opt) {
        case OPT_SEATS: seats = optarg; break;
        case OPT_RECORD: record = optarg; break;
        case OPT_RESUME: resume = optarg; break;
        case OPT_HINT: hint = optarg; break;
        case OPT_HELP:
            printf("usage: pizzabox play [--game nyslice|theory|delivery] [--players N]\n"
                   "       [--seats human,greedy,...] [--seed S] [--record FILE] [--resume FILE]\n"
                   "       [--hint BOT] [--deck FILE] [--board FILE] [--expansion]\n"
                   "       [--expansion-powers] [--extra-cheese]\n"
                   CLI_COOP_HELP
                   "Plays a game at the terminal. Seats are 'human' or a bot (see below);\n"
                   "the default is one human and greedy bots in the other seats (New York\n"
                   "Slice: 4 players, Pizza Theory: 3, New York Pizza Delivery: 4). Several\n"
                   "humans play hot-seat. --record keeps the game record up to date after every\n"
                   "move; --resume continues a saved game (its record says the game, players\n"
                   "and seed; --seats may change who plays). hint and Enter use the expert bot\n"
                   "(--hint picks another). Type 'help' during the game.\n"
                   "New York Slice: --deck plays with another deck. Pizza Theory: --board on\n"
                   "another board. New York Pizza Delivery: --expansion adds the 5-6 player\n"
                   "box's cards for 2 to 4 players, --expansion-powers its 26 power cards alone\n"
                   "(the rulebook's choice for 2 to 4), --extra-cheese the Extra Cheese mini\n"
                   "expansion's cards.\n" CLI_COOP_ABOUT "Bots:");
            print_bots();
            return 0;
        default:
            return EXIT_USAGE;
        }
    }
    if (optind != argc) {
        cli_error("play", "unexpected argument '%s'", argv[optind]);
        return EXIT_USAGE;
    }
    if (resume && c.given) {
        cli_error("play", "%s cannot change a game continued with --resume: its record says the game, "
                  "the players and the seed", c.given);
        return EXIT_USAGE;
    }
    if ((record && cli_check_output("play", "--record", record) != 0) ||
        (resume && !record && cli_check_output("play", "--resume", resume) != 0))
        return EXIT_USAGE;
    if (!c.seed_given)
        c.seed = pb_derive_seed((uint64_t)time(NULL), (uint64_t)getpid());
    play *p = calloc(1, sizeof *p);
    if (!p)
        return 1;
    p->tty = isatty(STDIN_FILENO);
    const char *no_colour = getenv("NO_COLOR");
    p->colour = isatty(STDOUT_FILENO) && !(no_colour && *no_colour);
    p->last_human = p->last_round = -1;
    p->record_path = record ? record : resume;
    p->hint_spec = hint;
    p->options = resume ? NULL : &c;
    int rc = resume ? start_resumed(p, resume, seats) : start_new(p, &c, seats);
    if (rc == 0)
        rc = make_seat_bots(p);
    if (rc == 0)
        p->front = pb_front_for(p->g);
    if (rc != 0) {
        play_free(p);
        free(p);
        return EXIT_USAGE;
    }
    name_seats(p);
    pb_record_set_names(p->rec, p->names, p->players);
    if (p->record_path && save_record(p, p->record_path) != 0)
        rc = 1;
    if (rc == 0) {
        /* The seed decides every hidden slice: it is shown only at the end. */
        printf("%s, %d players. Type 'help' for commands.\n", p->g->ops->title, p->players);
        if (resume)
            tell_resumed(p, resume);
        rc = run(p);
        tty_unhush();
    }
    play_free(p);
    free(p);
    return rc;
}
