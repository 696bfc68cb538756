"""rouge-score's `io`: score target and prediction files (records split on a delimiter) and
write the scores, or their bootstrap aggregates, to a CSV file. Messages go to the `cybleu`
logger (rouge-score logs through absl)."""
import glob
import itertools
import logging

from .tokenize import _ensure_str

__all__ = ["compute_scores_and_write_to_csv"]

logger = logging.getLogger("cybleu")


def compute_scores_and_write_to_csv(target_filepattern, prediction_filepattern, output_filename,
                                    scorer, aggregator, delimiter="\n"):
    """Runs aggregate score calculations and outputs results to a CSV file.

    :param target_filepattern: A glob pattern of files holding target text.
    :param prediction_filepattern: A glob pattern of files holding predicted text (as many files;
        both sorted by name and paired).
    :param output_filename: The CSV file to write.
    :param scorer: A scorer with `score(target, prediction)` (a `rouge_scorer.RougeScorer`).
    :param aggregator: A `scoring.BootstrapAggregator` (writes `type-R/P/F,low,mid,high` rows),
        or None (writes every record's scores).
    :param delimiter: The record delimiter (default a newline; the last record must end with
        it).
    :raises ValueError: No target file, unequal numbers of files, or of records in a pair.
    """
    target_filenames = glob.glob(target_filepattern)
    prediction_filenames = glob.glob(prediction_filepattern)
    if len(target_filenames) < 1 or len(target_filenames) != len(prediction_filenames):
        raise ValueError("Must have equal and positive number of target and prediction files. "
                         "Found: %d target files (%s), %d prediction files (%s)."
                         % (len(target_filenames), target_filepattern,
                            len(prediction_filenames), prediction_filepattern))
    scores = _compute_scores(target_filenames, prediction_filenames, scorer, delimiter)
    if aggregator:
        for score in scores:
            aggregator.add_scores(score)
        _write_aggregates_to_csv(output_filename, aggregator.aggregate())
    else:
        _write_scores_to_csv(output_filename, scores)


def _record_gen(filename, delimiter):
    """The records of a file, split on the delimiter (which must end the file)."""
    with open(filename) as f:
        records = f.read().split(_ensure_str(delimiter))
    if records[-1]:
        logger.warning("Expected delimiter at end of file")
    else:
        records = records[:-1]
    yield from records


def _compute_scores(target_filenames, prediction_filenames, scorer, delimiter):
    scores = []
    for target_filename, prediction_filename in zip(sorted(target_filenames),
                                                    sorted(prediction_filenames)):
        logger.info("Reading targets from %s.", target_filename)
        logger.info("Reading predictions from %s.", prediction_filename)
        targets = _record_gen(target_filename, delimiter)
        preds = _record_gen(prediction_filename, delimiter)
        for target_rec, prediction_rec in itertools.zip_longest(targets, preds):
            if target_rec is None or prediction_rec is None:
                raise ValueError("Must have equal number of lines across target and prediction "
                                 "files. Mismatch between files: %s, %s."
                                 % (target_filename, prediction_filename))
            scores.append(scorer.score(target_rec, prediction_rec))
    return scores


def _write_aggregates_to_csv(output_filename, aggregates):
    """Rows `score_type-(R|P|F),low,mid,high`, the types sorted."""
    logger.info("Writing results to %s.", output_filename)
    with open(output_filename, "w") as output_file:
        output_file.write("score_type,low,mid,high\n")
        for score_type, aggregate in sorted(aggregates.items()):
            for letter, field in (("R", "recall"), ("P", "precision"), ("F", "fmeasure")):
                output_file.write("%s-%s,%f,%f,%f\n" % (
                    score_type, letter, getattr(aggregate.low, field),
                    getattr(aggregate.mid, field), getattr(aggregate.high, field)))
    logger.info("Finished writing results.")


def _write_scores_to_csv(output_filename, scores):
    """A header `id,type-P,type-R,type-F,...` (types sorted), then a row per record."""
    if len(scores) < 1:
        logger.warning("No scores to write")
        return
    rouge_types = sorted(scores[0].keys())
    logger.info("Writing results to %s.", output_filename)
    with open(output_filename, "w") as out_file:
        out_file.write("id")
        for rouge_type in rouge_types:
            out_file.write(",{t}-P,{t}-R,{t}-F".format(t=rouge_type))
        out_file.write("\n")
        for i, result in enumerate(scores):
            out_file.write("%d" % i)
            for rouge_type in rouge_types:
                out_file.write(",%f,%f,%f" % (result[rouge_type].precision,
                                              result[rouge_type].recall,
                                              result[rouge_type].fmeasure))
            out_file.write("\n")
    logger.info("Finished writing results.")
