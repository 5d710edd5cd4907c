# The median of a list of numbers separated by spaces, for the summaries of
# scripts/bench/relay_load.sh and relay_flood.sh (each puts this file's text
# before its own program): the middle value, or the mean of the two middle
# values of an even count.
function median(list,   values, count, i, j, t) {
    count = split(list, values, " ")
    for (i = 1; i <= count; i++) for (j = i + 1; j <= count; j++) if (values[j] + 0 < values[i] + 0) { t = values[i]; values[i] = values[j]; values[j] = t }
    return count % 2 ? values[(count + 1) / 2] : (values[count / 2] + values[count / 2 + 1]) / 2
}
