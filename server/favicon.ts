/**
 * The site icon (issue 28 item 19: `/favicon.ico` answered 404, on every page load a console
 * error): a 32 px PNG of the brand's ring in an ICO file, kept here so that it is served the same
 * way by the production build, `npm run dev` and the tests, before the host check (it says
 * nothing about any tenant).
 */
export const FAVICON_ICO = Buffer.from(
  'AAABAAEAICAAAAEAIADWAgAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAgAAAAIAgGAAAAc3p69AAAAAlwSFlzAAALEwAACxMBAJqcGAAAAohJREFUWMPFVzlPG0EU3j7IbhLoki5F7CBEpJCkJEAZEAoF7HCJBNoohQ0BCQg0EIqIw5Sc4R8YU3H0YKfPISAhdxEOASbSvsy3iS3v7JqdWRvzpCeNdt/M++ad8zQtg66UsmJ/kA37gizhC+hHfE35YJzlC+pxf1Afgg7Nify3mxu40EG+lGYFAx239Mc25fyncdHKM9hIg4BJCnFzuyXYflFZ+zUNPi+08jQH2EuN3/6t6saKujA9DUfoxegbk7HGNw/xEOcA2KGMcMmdduobW6KPu98pG+Ff76slU1Y2IDUZwWp9gD59+UWytLv3k6qaBqRAuAJofT5Op8k/pEonp2fUwvfmBKCGDToqPz5JUnR1kybnlmlqLkbLq1vmNycQbpbQzvO5aHbDMGhiNkrX73fa5PENgCCTSTvcHcXlbeoAEHCickS7m0k7u6dtIJApygDEaMfNZdMrMh+z7H2//VUNwL26bpvPncyejW886OL+t8ZERW1YHsCTUMSyObYWVy4ysfW45YyO0JQ8ANH/4zNRZQAIyExCgZIGAGGv/k8x0lMmEC/MBSsbCe8uQGPJdxDefRRSS8MPO98sB8CnsgCmF1Yse9+ppqFTHKC4oMi4Ke/qsReinpFFb6UYXU0EgeCCiZ3MjpuLyrc///BWisFoJGgo9iaTNPMcYMBYiz5PNaPKxv7c2jFaqhMImXbMnr3O/T0AftjUb3Y1WYLZ3W6eBiD7IoYfUUzE7BCbDgLuPJ+LL2O8CROqRQY5jWIFZWCss+W566MU49IlPssHL28wCbDfRTcbr/4bzfiYVPDRLNBcb50POQgERSFublOeIsxqGJe40JbswCIZ7Yc4Ez5Pm/0//QU6IRyMTsZ99AAAAABJRU5ErkJggg==',
  'base64',
);
