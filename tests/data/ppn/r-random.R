seeds <- c(42, 1, 11, 123, 2020, 0, 7, -5, 2147483647, 99991, 314159, 65535)
out <- list()
for (s in seeds) {
  set.seed(s)
  a <- sample.int(6); b <- sample.int(24); c <- sample.int(6, 4, replace = TRUE)
  d <- sample.int(4, 20, replace = TRUE); e <- sample.int(100, 3); f <- sample.int(70000, 5)
  g <- runif(3)
  out[[length(out) + 1]] <- sprintf('{"seed": %s, "sample6": [%s], "sample24": [%s], "dice": [%s], "four": [%s], "hundred": [%s], "big": [%s], "runif": [%s]}',
    format(s, scientific = FALSE), paste(a, collapse = ", "), paste(b, collapse = ", "), paste(c, collapse = ", "),
    paste(d, collapse = ", "), paste(e, collapse = ", "), paste(f, collapse = ", "), paste(sprintf("%.17g", g), collapse = ", "))
}
cat("[\n", paste(out, collapse = ",\n"), "\n]\n", sep = "")
