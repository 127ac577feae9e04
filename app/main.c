/* main.c -- the pizzabox command: one binary, one subcommand per job. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "sim.h"

int cmd_export(int argc, char **argv); /* cmd_export.c */

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"play", cmd_play, "play a game at the terminal, against bots or hot-seat"},
    {"serve", cmd_serve, "serve tables for friends in the browser (web client + WebSocket)"},
    {"export", cmd_export, "write the game records of a server's finished tables"},
    {"demo", cmd_demo, "play a quick game between bots and print the Guest Check"},
    {"score", cmd_score, "score a finished New York Slice table given as JSON"},
    {"replay", cmd_replay, "replay a game record and print its final score report"},
    {"analyze", cmd_analyze, "review every decision of a game record: the move played and the best found"},
    {"verify", cmd_verify, "prove a server game's deal was fixed before its first move"},
    {"selfplay", cmd_selfplay, "play many games between bots, one JSON line per game"},
    {"sim", cmd_sim, "simulate many games between bots, with statistics"},
    {"sim-merge", cmd_sim_merge, "combine the results of sharded sim runs"},
    {"engine", cmd_engine, "drive any game and its bots through a line protocol (docs/engine.md)"},
    {"bench", cmd_bench, "measure random games per second, or a bot's thinking time"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: pizzabox COMMAND [OPTIONS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'pizzabox COMMAND --help' describes a command's options.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_USAGE : 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "pizzabox: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
