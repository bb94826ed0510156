/**
 * The add dialogs of the Chemical Additives and Waste Container tabs (no React): the add button
 * (`[data-open-dialog=dialog-id]`) opens its <dialog> instead of following its ?add=1 link,
 * Cancel (`[data-close-dialog]`) closes it, and submitting shows the form's busy label ('Creating...').
 */
import { wireAddDialogs } from "../components/machines/add-dialogs";
import { whenReady } from "../lib/island";

whenReady(() => wireAddDialogs(document));
